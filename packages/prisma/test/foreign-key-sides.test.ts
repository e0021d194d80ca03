import { describe, expect, test } from 'vitest';
import { foreignKeySides, parseRelationFields } from '../src/foreign-key-sides.js';

const SCHEMA = `
generator client {
  provider = "prisma-client" // a comment with model X { in it
}

/// A player. "quotes" and // slashes in comments are skipped.
model Player {
  id       BigInt  @id @default(dbgenerated())
  name     String  @default("a // not a comment")
  matches  Match[]
  mentor   Player? @relation("Mentoring", fields: [mentorId], references: [id])
  mentorId BigInt?
  pupils   Player[] @relation("Mentoring")
}

model Match {
  id       BigInt @id @default(dbgenerated())
  playerId BigInt @map("player_id")
  player   Player @relation(
    fields: [playerId],
    references: [id],
    onDelete: Cascade
  )
  @@map("matches")
}
`;

const dataModel = {
  models: {
    Player: {
      fields: [
        { name: 'id', kind: 'scalar', type: 'BigInt' },
        { name: 'matches', kind: 'object', type: 'Match', relationName: 'MatchToPlayer' },
        { name: 'mentor', kind: 'object', type: 'Player', relationName: 'Mentoring' },
        { name: 'pupils', kind: 'object', type: 'Player', relationName: 'Mentoring' },
      ],
    },
    Match: {
      fields: [
        { name: 'id', kind: 'scalar', type: 'BigInt' },
        { name: 'player', kind: 'object', type: 'Player', relationName: 'MatchToPlayer' },
      ],
    },
  },
};

describe('foreign-key sides of relations, read from the schema a client carries', () => {
  test('GIVEN comments, strings, a self-relation and @relation over several lines THEN each field says whether it holds the key', () => {
    const fields = parseRelationFields(SCHEMA);
    expect([...fields.keys()]).toEqual(['Player', 'Match']);
    expect(fields.get('Match')?.get('player')).toEqual({ type: 'Player', holdsKey: true });
    expect(fields.get('Player')?.get('matches')).toEqual({ type: 'Match', holdsKey: false });
    expect(fields.get('Player')?.get('mentor')).toEqual({ type: 'Player', holdsKey: true });
    expect(fields.get('Player')?.get('pupils')).toEqual({ type: 'Player', holdsKey: false });
  });

  test('GIVEN a client with its schema THEN the parents of each model are the key-holding fields', () => {
    const sides = foreignKeySides({ _engineConfig: { inlineSchema: SCHEMA } }, dataModel);
    expect(sides?.get('Match')).toEqual(new Set(['player']));
    expect(sides?.get('Player')).toEqual(new Set(['mentor']));
  });

  test.each([
    ['no schema', {}],
    [
      'a schema without the relation field',
      { _engineConfig: { inlineSchema: SCHEMA.replace(/ {2}pupils.*\n/, '') } },
    ],
    [
      'a schema whose field has another type',
      { _engineConfig: { inlineSchema: SCHEMA.replace('matches  Match[]', 'matches  Game[]') } },
    ],
  ])('GIVEN a client with %s THEN the sides are unknown (ids follow the data order)', (_, client) => {
    expect(foreignKeySides(client, dataModel)).toBeUndefined();
  });
});
