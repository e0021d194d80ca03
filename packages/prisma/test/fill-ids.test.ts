import { InvalidArgumentError } from '@snowkey/core';
import { describe, expect, test } from 'vitest';
import { buildWritePlan, type ModelDefinitions } from '../src/data-model.js';
import { createIdFiller } from '../src/fill-ids.js';
import { counterGenerator } from './helpers/counter-generator.js';

const scalar = (name: string, type = 'BigInt') => ({ name, kind: 'scalar', type });
const relation = (name: string, type: string) => ({ name, kind: 'object', type });
const dataModel: ModelDefinitions = {
  models: {
    Team: { fields: [scalar('id', 'Int'), relation('players', 'Player')] },
    Player: {
      fields: [scalar('id'), scalar('teamId', 'Int'), relation('team', 'Team'), relation('data', 'Blob')],
    },
    Blob: { fields: [scalar('id'), relation('player', 'Player')] },
  },
};
const plan = buildWritePlan(
  dataModel,
  new Map([
    ['Player', ['id']],
    ['Blob', ['id']],
  ]),
);

function deepFreeze<T>(value: T): T {
  if (value && typeof value === 'object') {
    for (const v of Object.values(value)) deepFreeze(v);
    Object.freeze(value);
  }
  return value;
}

describe('createIdFiller', () => {
  test('GIVEN nested input THEN the ids are written into it in place, parents before children, and it is returned', () => {
    // The extension passes Prisma's per-callback deep copy of the caller's arguments, never the
    // caller's own objects (create-operations.test.ts checks that through a real client).
    const filler = createIdFiller(plan, counterGenerator(10n), false);
    const child = { name: 'a', data: { create: {} } };
    const args = { data: { name: 'team', players: { create: [child, { id: 3n }] } } };
    expect(filler.fill('Team', 'create', args)).toBe(args);
    expect(args).toEqual({
      data: {
        name: 'team',
        players: { create: [{ id: 10n, name: 'a', data: { create: { id: 11n } } }, { id: 3n }] },
      },
    });
    expect(args.data.players.create[0]).toBe(child);
  });

  test('GIVEN frozen nested input in copy mode THEN the ids go into copies along the way and the input is untouched', () => {
    // Frozen objects make any write into the caller's objects throw (ES modules are strict).
    const filler = createIdFiller(plan, counterGenerator(10n), true);
    const shared = deepFreeze({ tags: ['x'] });
    const args = deepFreeze({
      data: {
        name: 'team',
        meta: shared,
        players: { create: [{ name: 'a', data: { create: {} } }, { id: 3n }] },
      },
      select: { id: true },
    });
    const filled = filler.fill('Team', 'create', args) as typeof args;
    expect(filled).toEqual({
      data: {
        name: 'team',
        meta: { tags: ['x'] },
        players: { create: [{ id: 10n, name: 'a', data: { create: { id: 11n } } }, { id: 3n }] },
      },
      select: { id: true },
    });
    expect(filled).not.toBe(args);
    // What holds no id is shared, not copied.
    expect(filled.data.meta).toBe(shared);
    expect(filled.select).toBe(args.select);
    const rows = deepFreeze([{ name: 'r1' }, { id: 5n, name: 'r2' }]);
    const many = filler.fill('Player', 'createMany', deepFreeze({ data: rows })) as { data: object[] };
    expect(many.data).toEqual([
      { name: 'r1', id: 12n },
      { id: 5n, name: 'r2' },
    ]);
    expect(many.data[1]).toBe(rows[1]);
  });

  test('GIVEN a generator with nextIds THEN createMany takes its ids in one batch', () => {
    const calls: number[] = [];
    const generator = {
      nextId: () => 99n,
      nextIds: (n: number) => {
        calls.push(n);
        return Array.from({ length: n }, (_, i) => 100n + BigInt(i));
      },
    };
    const filler = createIdFiller(plan, generator, false);
    expect(filler.fill('Player', 'createMany', { data: [{}, { id: 1n }, {}] })).toEqual({
      data: [{ id: 100n }, { id: 1n }, { id: 101n }],
    });
    expect(filler.fill('Player', 'createMany', { data: {} })).toEqual({ data: { id: 99n } });
    expect(calls).toEqual([2]);
  });

  test.each([
    ['a read', 'findMany', { where: { id: 1n } }],
    ['an update without creates', 'update', { where: { id: 1n }, data: { teamId: 2 } }],
    ['a create with every id set', 'create', { data: { id: 1n, data: { create: { id: 2n } } } }],
  ])('GIVEN %s THEN the arguments are passed on as they are', (_label, operation, args) => {
    const filler = createIdFiller(plan, counterGenerator(1n), false);
    expect(filler.fill('Player', operation, args)).toBe(args);
  });

  test('GIVEN a to-one update on a model with a field named "data" THEN the direct form is not taken for the wrapper', () => {
    const filler = createIdFiller(plan, counterGenerator(7n), false);
    const direct = () => ({ data: { create: {} } });
    expect(filler.fill('Blob', 'update', { data: { player: { update: direct() } } })).toEqual({
      data: { player: { update: { data: { create: { id: 7n } } } } },
    });
    expect(
      filler.fill('Blob', 'update', { data: { player: { update: { where: {}, data: direct() } } } }),
    ).toEqual({
      data: { player: { update: { where: {}, data: { data: { create: { id: 8n } } } } } },
    });
  });

  // The rule itself (which values are kept, generated or refused) is held for every adapter by
  // the conformance suite; here, that the extension applies it at every depth of a nested write.
  test.each([
    ['a safe Number', 5],
    ['a string', '12'],
  ])(
    'GIVEN a caller id that is %s, at the top or nested THEN the fill throws naming Player.id',
    (_label, id) => {
      const filler = createIdFiller(plan, counterGenerator(1n), false);
      for (const [model, operation, args] of [
        ['Player', 'create', { data: { id } }],
        ['Player', 'createMany', { data: [{}, { id }] }],
        ['Team', 'create', { data: { players: { create: { id } } } }],
        ['Team', 'update', { data: { players: { upsert: { where: {}, create: { id }, update: {} } } } }],
      ] as const) {
        expect(() => filler.fill(model, operation, args)).toThrow(InvalidArgumentError);
        expect(() => filler.fill(model, operation, args)).toThrow(
          '"Player.id" must be a bigint in 1..2^63-1',
        );
      }
    },
  );

  test('GIVEN a caller id of null THEN it is passed on for Prisma to judge (the NULL of a nullable field)', () => {
    const filler = createIdFiller(plan, counterGenerator(1n), false);
    expect(filler.fill('Player', 'createMany', { data: [{ id: 5n }, { id: null }] })).toEqual({
      data: [{ id: 5n }, { id: null }],
    });
  });

  test.each([
    ['too few ids', [100n]],
    ['too many ids', [100n, 101n, 102n]],
    ['no array', undefined as unknown as bigint[]],
  ])(
    'GIVEN a generator whose nextIds returns %s THEN createMany throws naming generator.nextIds, before any id is used',
    (_label, ids) => {
      const filler = createIdFiller(plan, { nextId: () => 99n, nextIds: () => ids }, false);
      expect(() => filler.fill('Player', 'createMany', { data: [{}, {}] })).toThrow(InvalidArgumentError);
      expect(() => filler.fill('Player', 'createMany', { data: [{}, {}] })).toThrow(
        /^"generator\.nextIds\(2\)" must be an array of 2 ids, each a bigint in 1..2\^63-1/,
      );
    },
  );

  test('GIVEN a generator that returns a number THEN the create fails with InvalidArgumentError', () => {
    const filler = createIdFiller(plan, { nextId: () => 5 as unknown as bigint }, false);
    expect(() => filler.fill('Player', 'create', { data: {} })).toThrow(InvalidArgumentError);
    expect(() => filler.fill('Player', 'create', { data: {} })).toThrow(
      '"generator.nextId()" must be a bigint in 1..2^63-1 (received 5)',
    );
  });
});
