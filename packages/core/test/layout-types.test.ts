import { describe, expectTypeOf, test } from 'vitest';
import {
  composeId,
  type DecodedId,
  decode,
  defineLayout,
  type Layout,
  layouts,
  manualClock,
  nodeIdFromEnv,
  Snowflake,
} from '../src/index.js';

// These tests are checked by `pnpm typecheck` (tsc): a `@ts-expect-error` line that compiles, or an
// `expectTypeOf` that does not hold, fails the typecheck. The calls that would throw at run time
// sit inside functions that are never called, so only their types are under test.

const clock = manualClock(Date.UTC(2026, 0, 1)).now;

describe('layout field names are types', () => {
  test('GIVEN defineLayout with an object of node bits THEN the layout carries the field names', () => {
    const game = defineLayout({
      name: 'game',
      timestampBits: 41,
      nodeBits: { serverId: 12 },
      sequenceBits: 10,
    });
    expectTypeOf(game).toEqualTypeOf<Layout<'serverId'>>();
  });

  test('GIVEN defineLayout with an array of node bits THEN the names are inferred in order-free union', () => {
    const twoLevel = defineLayout({
      timestampBits: 41,
      nodeBits: [
        ['regionId', 4],
        ['hostId', 6],
      ],
      sequenceBits: 12,
    });
    expectTypeOf(twoLevel).toEqualTypeOf<Layout<'regionId' | 'hostId'>>();
  });

  test('GIVEN a layout without node bits THEN it has no field names', () => {
    const bare = defineLayout({ timestampBits: 41, nodeBits: {}, sequenceBits: 12 });
    expectTypeOf(bare).toEqualTypeOf<Layout<never>>();
    expectTypeOf(new Snowflake({ layout: bare, clock }).node).toEqualTypeOf<
      Readonly<Record<never, number>>
    >();
  });

  test.each([
    ['snowkey', layouts.snowkey],
    ['twitter', layouts.twitter],
  ] as const)('GIVEN preset %s THEN its type names its fields', (_name, layout) => {
    expectTypeOf(layout).toMatchTypeOf<Layout<'workerId'> | Layout<'datacenterId' | 'workerId'>>();
  });

  test('GIVEN every preset THEN its field names are exact', () => {
    expectTypeOf(layouts.default).toEqualTypeOf<Layout<'workerId'>>();
    expectTypeOf(layouts.snowkey).toEqualTypeOf<Layout<'workerId'>>();
    expectTypeOf(layouts.twitter).toEqualTypeOf<Layout<'datacenterId' | 'workerId'>>();
    expectTypeOf(layouts.discord).toEqualTypeOf<Layout<'workerId' | 'processId'>>();
    expectTypeOf(layouts.instagram).toEqualTypeOf<Layout<'shardId'>>();
    expectTypeOf(layouts.sonyflake).toEqualTypeOf<Layout<'machineId'>>();
    expectTypeOf(layouts.gameServer).toEqualTypeOf<Layout<'serverId'>>();
  });
});

describe('the generator checks its options against the layout', () => {
  test('GIVEN the layout fields by name THEN it compiles and the node and decode are typed', () => {
    const gen = new Snowflake({ layout: layouts.gameServer, serverId: 2, clock });
    expectTypeOf(gen).toEqualTypeOf<Snowflake<'serverId'>>();
    expectTypeOf(gen.node.serverId).toEqualTypeOf<number>();
    const decoded = gen.decode(gen.nextId());
    expectTypeOf(decoded.serverId).toEqualTypeOf<number>();
    expectTypeOf(decoded.id).toEqualTypeOf<bigint>();
    expectTypeOf(decoded.date).toEqualTypeOf<Date>();
  });

  test('GIVEN no layout THEN the default layout wants workerId', () => {
    expectTypeOf(new Snowflake({ workerId: 1, clock })).toEqualTypeOf<Snowflake<'workerId'>>();
  });

  test('GIVEN misspelt fields or options, missing fields or a field and nodeId together THEN none compiles', () => {
    // Never called: only the types are under test here (each would also throw at run time).
    const attempts = () => [
      // @ts-expect-error srverId is not a field of gameServer
      new Snowflake({ layout: layouts.gameServer, srverId: 2 }),
      // @ts-expect-error maxBorowMs is not an option
      new Snowflake({ layout: layouts.gameServer, serverId: 2, maxBorowMs: 5 }),
      // @ts-expect-error datacenterId is missing
      new Snowflake({ layout: layouts.twitter, workerId: 1 }),
      // @ts-expect-error a field and a packed nodeId together
      new Snowflake({ layout: layouts.gameServer, serverId: 2, nodeId: 2 }),
      // @ts-expect-error workerId belongs to another layout
      new Snowflake({ layout: layouts.gameServer, workerId: 2 }),
      // @ts-expect-error the default layout needs a node id
      new Snowflake({}),
    ];
    expectTypeOf(attempts).toBeFunction();
  });

  test('GIVEN a packed nodeId or a lease-like source THEN it compiles without fields', () => {
    expectTypeOf(new Snowflake({ layout: layouts.twitter, nodeId: 33, clock })).toEqualTypeOf<
      Snowflake<'datacenterId' | 'workerId'>
    >();
    const lease = { nodeId: 3, fence: { startAfter: 0, permit: () => {} } };
    expectTypeOf(new Snowflake({ layout: layouts.gameServer, lease, clock })).toEqualTypeOf<
      Snowflake<'serverId'>
    >();
  });

  test('GIVEN node ids read from the environment THEN they spread into the options', () => {
    const env = { SNOWKEY_SERVER_ID: '9' };
    const gen = new Snowflake({
      layout: layouts.gameServer,
      ...nodeIdFromEnv({ layout: layouts.gameServer, env }),
      clock,
    });
    expectTypeOf(gen).toEqualTypeOf<Snowflake<'serverId'>>();
  });

  test('GIVEN a layout typed only as Layout THEN any field compiles and is checked at run time', () => {
    const someLayout: Layout = layouts.gameServer;
    const gen = new Snowflake({ layout: someLayout, serverId: 2, clock });
    expectTypeOf(gen.decode(gen.nextId()).serverId).toEqualTypeOf<unknown>();
  });
});

describe('decode and composeId are typed by the layout', () => {
  test('GIVEN decode with a preset THEN its fields are numbers and others do not exist', () => {
    const d = decode(175928847299117063n, { layout: layouts.discord });
    expectTypeOf(d).toEqualTypeOf<DecodedId<'workerId' | 'processId'>>();
    expectTypeOf(d.processId).toEqualTypeOf<number>();
    // @ts-expect-error discord ids have no serverId
    expectTypeOf(d.serverId).toBeNever();
  });

  test('GIVEN composeId THEN every field of the layout is required', () => {
    const timestamp = Date.UTC(2026, 0, 1);
    expectTypeOf(
      composeId({ timestamp, sequence: 0, serverId: 1 }, layouts.gameServer),
    ).toEqualTypeOf<bigint>();
    const missing = () =>
      // @ts-expect-error serverId is missing
      composeId({ timestamp, sequence: 0 }, layouts.gameServer);
    expectTypeOf(missing).returns.toEqualTypeOf<bigint>();
  });
});
