import type { Server } from 'node:http';
import { MAX_KEY } from '@snowkey/core/adapter';
import { idErrorBody, parseJsonId, strictBigints } from '@snowkey/http';
import { describeEachDialect } from '@snowkey/test-harness';
import { createTRPCClient, httpLink, TRPCClientError } from '@trpc/client';
import { initTRPC, TRPCError } from '@trpc/server';
import { createHTTPServer } from '@trpc/server/adapters/standalone';
import superjson from 'superjson';
import { afterAll, beforeAll, expect, expectTypeOf, test } from 'vitest';
import { listen } from './support/listen.js';
import { plannedIds } from './support/planned-ids.js';
import { knexPlayerStore, PLAYERS_DDL, type PlayerStore } from './support/player-store.js';
import { NEIGHBOUR, ODD_ABOVE_2_53, playerIds, type RunningServer, SMALL } from './support/round-trip.js';

// tRPC 11 with superjson, the bigint stays a bigint from the database to the client and back:
// superjson carries it, strictBigints refuses a bigint that is not its own decimal string, and
// parseJsonId in the input parsers holds it to the key range and refuses a JSON number. On Knex
// through @snowkey/knex.
const transformer = strictBigints(superjson);

function appRouter(store: PlayerStore) {
  const t = initTRPC.create({ transformer });
  const view = (p: { id: bigint; name: string }) => ({
    id: p.id,
    publicId: playerIds.encode(p.id),
    name: p.name,
  });
  const found = <T>(value: T | null): T => {
    if (value === null) throw new TRPCError({ code: 'NOT_FOUND' });
    return value;
  };
  const field = (raw: unknown, key: string) => (raw as Record<string, unknown> | null)?.[key];
  // A bad id found while resolving (a public id decoded in the resolver) is the client's 400 too.
  const procedure = t.procedure.use(async ({ next }) => {
    const result = await next();
    if (!result.ok && idErrorBody(result.error.cause)) {
      throw new TRPCError({ code: 'BAD_REQUEST', message: result.error.message, cause: result.error.cause });
    }
    return result;
  });
  return t.router({
    create: t.procedure
      .input((raw) => ({ name: String(field(raw, 'name')) }))
      .mutation(async ({ input }) => view(await store.create(input.name))),
    player: t.procedure
      .input((raw) => ({ id: parseJsonId(field(raw, 'id'), 'id') }))
      .query(async ({ input }) => view(found(await store.find(input.id)))),
    rename: t.procedure
      .input((raw) => ({ id: parseJsonId(field(raw, 'id'), 'id'), name: String(field(raw, 'name')) }))
      .mutation(async ({ input }) => {
        found((await store.rename(input.id, input.name)) ? true : null);
        return { id: input.id, name: input.name };
      }),
    byPublicId: procedure
      .input((raw) => ({ publicId: String(field(raw, 'publicId')) }))
      .query(async ({ input }) =>
        view(found(await store.find(playerIds.decode(input.publicId, 'publicId')))),
      ),
  });
}
type AppRouter = ReturnType<typeof appRouter>;

describeEachDialect('tRPC + superjson + @snowkey/knex', (ctx) => {
  const ids = plannedIds();
  let store: PlayerStore | undefined;
  let server: RunningServer | undefined;
  const client = () => createTRPCClient<AppRouter>({ links: [httpLink({ url: server!.url, transformer })] });
  const rows = () => ctx.db.query('SELECT id, name FROM players ORDER BY id');

  beforeAll(async () => {
    await ctx.db.query(PLAYERS_DDL);
    await ctx.db.query('INSERT INTO players (id, name) VALUES (?, ?)', [NEIGHBOUR, 'neighbour']);
    await ctx.db.query('INSERT INTO players (id, name) VALUES (?, ?)', [SMALL, 'forty-two']);
    store = knexPlayerStore(ctx.db, ids);
    server = await listen(createHTTPServer({ router: appRouter(store) }) as Server);
  });
  afterAll(async () => {
    await server?.close();
    await store?.close();
  });

  test.each([
    ['2^63-1', MAX_KEY],
    ['2^53+1', ODD_ABOVE_2_53],
  ])(
    'GIVEN the adapter assigns %s THEN the client gets a bigint, sends it back, and the server finds that very row',
    async (_what, planned) => {
      ids.plan(planned);
      const created = await client().create.mutate({ name: `p${planned}` });
      expectTypeOf(created.id).toEqualTypeOf<bigint>();
      expect(created.id).toBe(planned);
      expect(await ctx.db.query('SELECT name FROM players WHERE id = ?', [planned])).toEqual([
        { name: `p${planned}` },
      ]);

      expect(await client().player.query({ id: created.id })).toEqual({
        id: planned,
        publicId: playerIds.encode(planned),
        name: `p${planned}`,
      });
      expect(await client().rename.mutate({ id: created.id, name: `renamed ${planned}` })).toEqual({
        id: planned,
        name: `renamed ${planned}`,
      });
      expect(await ctx.db.query('SELECT name FROM players WHERE id = ?', [planned])).toEqual([
        { name: `renamed ${planned}` },
      ]);
      expect((await client().byPublicId.query({ publicId: created.publicId })).id).toBe(planned);
      expect(await ctx.db.query('SELECT name FROM players WHERE id = ?', [NEIGHBOUR])).toEqual([
        { name: 'neighbour' },
      ]);
    },
  );

  test('GIVEN a bigint of no row THEN NOT_FOUND, not a neighbour', async () => {
    const err = await client()
      .player.query({ id: NEIGHBOUR + 3n })
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(TRPCClientError);
    expect((err as TRPCClientError<AppRouter>).data?.httpStatus).toBe(404);
  });

  // What a client that bypasses the typed client could send: superjson payloads, raw.
  const bigintAt = (id: unknown) => ({
    json: { id, name: 'hijack' },
    meta: { values: { id: ['bigint'] }, v: 1 },
  });
  test.each([
    ['2^63 as a bigint', bigintAt('9223372036854775808')],
    ['a negative bigint', bigintAt('-9007199254740992')],
    ['zero', bigintAt('0')],
    ['a bigint in hex', bigintAt('0x20000000000000')],
    ['a bigint with a space', bigintAt(' 9007199254740992')],
    ['a bigint with a leading zero', bigintAt('09007199254740992')],
    ['a JSON number above 2^53', JSON.parse('{"json":{"id":9007199254740993,"name":"hijack"}}')],
    ['the JSON number 42', { json: { id: 42, name: 'hijack' } }],
    ['the JSON number 42.0', JSON.parse('{"json":{"id":42.0,"name":"hijack"}}')],
    ['the JSON number 4.2e1', JSON.parse('{"json":{"id":4.2e1,"name":"hijack"}}')],
    ['a non-canonical string', { json: { id: '09007199254740992', name: 'hijack' } }],
  ])(
    'GIVEN %s posted to rename THEN 400 saying what is wrong, and no row changes',
    async (_what, payload) => {
      const before = await rows();
      const res = await fetch(`${server!.url}/rename`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(payload),
      });
      expect(res.status).toBe(400);
      expect(await res.text()).toMatch(/must be/);
      expect(await rows()).toEqual(before);
    },
  );

  test('GIVEN a public id with a typo THEN 400 naming the fault', async () => {
    const pid = playerIds.encode(NEIGHBOUR);
    const bad = `${pid.slice(0, 11)}${pid[11] === 'x' ? 'y' : 'x'}${pid.slice(12)}`;
    const err = await client()
      .byPublicId.query({ publicId: bad })
      .catch((e: unknown) => e);
    expect((err as TRPCClientError<AppRouter>).data?.httpStatus).toBe(400);
    expect((err as Error).message).toMatch(/"publicId" must be a public id of "player"/);
  });
});
