import { describe, expect, test } from 'vitest';
import { dataModelSource } from '../src/data-model-source.js';
import { readPrismaDataModel } from '../src/prisma-data-model.js';
import { TEST_DATA_MODEL } from './helpers/extended-prisma.js';

const relation = (name: string, type: string, relationName: string, from: string[] = []) => ({
  name,
  kind: 'object',
  type,
  relationName,
  relationFromFields: from,
});

/** A DMMF datamodel as Prisma hands it to a generator, with the fields snowkey does not read. */
const DMMF = {
  models: [
    {
      name: 'Player',
      dbName: 'players',
      fields: [
        { name: 'id', kind: 'scalar', type: 'BigInt', isId: true, hasDefaultValue: true },
        relation('matches', 'Match', 'MatchToPlayer'),
        relation('mentor', 'Player', 'Mentoring', ['mentorId']),
        { name: 'mentorId', kind: 'scalar', type: 'BigInt', isId: false, hasDefaultValue: false },
        relation('pupils', 'Player', 'Mentoring'),
        relation('guilds', 'Guild', 'GuildToPlayer'),
      ],
    },
    {
      name: 'Match',
      dbName: null,
      fields: [
        { name: 'id', kind: 'scalar', type: 'BigInt' },
        { name: 'playerId', kind: 'scalar', type: 'BigInt' },
        relation('player', 'Player', 'MatchToPlayer', ['playerId']),
      ],
    },
    {
      name: 'Guild',
      dbName: null,
      fields: [
        { name: 'id', kind: 'scalar', type: 'BigInt' },
        relation('players', 'Player', 'GuildToPlayer'),
      ],
    },
  ],
};

describe('the dataModel option (a DMMF datamodel)', () => {
  test('GIVEN a self-relation, a one-to-many and an implicit many-to-many THEN the fields that hold a key are the parents', () => {
    const { parentSides, definitions } = readPrismaDataModel(DMMF);
    expect(Object.fromEntries([...parentSides].map(([model, sides]) => [model, [...sides]]))).toEqual({
      Player: ['mentor'],
      Match: ['player'],
      Guild: [],
    });
    expect(definitions.models.Match?.fields).toEqual([
      { name: 'id', kind: 'scalar', type: 'BigInt' },
      { name: 'playerId', kind: 'scalar', type: 'BigInt' },
      { name: 'player', kind: 'object', type: 'Player', relationName: 'MatchToPlayer' },
    ]);
  });

  test('GIVEN the file the generator writes THEN it evaluates to the same model as the DMMF it was written from', async () => {
    const url = `data:text/javascript;base64,${Buffer.from(dataModelSource(DMMF)).toString('base64')}`;
    const { dataModel } = (await import(url)) as { dataModel: unknown };
    expect(readPrismaDataModel(dataModel)).toEqual(readPrismaDataModel(DMMF));
  });

  test('GIVEN the data model generated for the test schema THEN the key-holding sides are those with @relation(fields: ...)', () => {
    const { parentSides } = readPrismaDataModel(TEST_DATA_MODEL);
    expect(Object.fromEntries([...parentSides].map(([model, sides]) => [model, [...sides]]))).toEqual({
      Item: [],
      Parent: [],
      Child: ['parent'],
      Profile: ['parent'],
      Toy: ['child'],
      Shelf: [],
      Stock: ['shelf'],
      Note: [],
    });
  });
});
