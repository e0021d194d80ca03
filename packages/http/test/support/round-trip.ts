import { type PublicIdCodec, publicIdCodec } from '@snowkey/core';
import { MAX_KEY } from '@snowkey/core/adapter';
import { describeEachDialect, type TestDatabase } from '@snowkey/test-harness';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { plannedIds } from './planned-ids.js';
import { PLAYERS_DDL, type PlayerStore } from './player-store.js';

/** 2^53+1: odd, above 2^53, and no JavaScript Number can hold it (JSON.parse makes it 2^53). */
export const ODD_ABOVE_2_53 = 2n ** 53n + 1n;
/** The row a rounded 2^53+1 would hit: seeded before every server starts, and never to change. */
export const NEIGHBOUR = 2n ** 53n;
/** The row a JSON number 42 (or 42.0, 4.2e1) would hit: seeded too, and never to change. */
export const SMALL = 42n;

/** The public ids the test servers hand out for players. */
export const playerIds: PublicIdCodec<'player'> = publicIdCodec({
  key: '7d1e3b5a9c2f4e6d8b0a1c3e5f7a9b2d',
  entity: 'player',
});

/** A server under test, listening on 127.0.0.1. */
export interface RunningServer {
  readonly url: string;
  close(): Promise<void>;
}

/**
 * Starts a framework's server for the round trip. It must serve, with ids as decimal strings in
 * JSON (whatever the framework's own way) and every bad id answered with a 400:
 * - `POST /players` `{ name }` → 201 `{ id, publicId, name }` (inserted through the store's adapter)
 * - `GET /players/:id` → 200 `{ id, publicId, name }`, 404 when there is no such row
 * - `POST /players/rename` `{ id, name }` → 200 `{ id, name }`, 404 when there is no such row
 * - `GET /public/players/:publicId` → 200 `{ id, publicId, name }` (`playerIds.decode`), 404 when none
 */
export type StartServer = (store: PlayerStore) => Promise<RunningServer>;

const post = (url: string, body: string) =>
  fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body });

/** Every row, read with raw SQL (the oracle), ids as decimal strings. */
async function rows(db: TestDatabase): Promise<Array<{ id: string; name: string }>> {
  return db.query<{ id: string; name: string }>('SELECT id, name FROM players ORDER BY id');
}

/**
 * The round trip every HTTP integration is held to, on every selected dialect: an id created
 * through the adapter is sent out, read back by the client, posted back, and found again in the
 * database by that id (raw SQL), exact at 2^63-1 and at 2^53+1; tampered and non-canonical ids get
 * a 400 that says what is wrong, and change no row.
 *
 * @example
 * describeIdRoundTrip('express + knex', (db, ids) => knexPlayerStore(db, ids), startExpressServer);
 */
export function describeIdRoundTrip(
  title: string,
  openStore: (db: TestDatabase, ids: ReturnType<typeof plannedIds>) => PlayerStore | Promise<PlayerStore>,
  start: StartServer,
): void {
  describeEachDialect(title, (ctx) => {
    const ids = plannedIds();
    let store: PlayerStore | undefined;
    let server: RunningServer | undefined;
    const url = (path: string) => `${server!.url}${path}`;

    beforeAll(async () => {
      await ctx.db.query(PLAYERS_DDL);
      await ctx.db.query('INSERT INTO players (id, name) VALUES (?, ?)', [NEIGHBOUR, 'neighbour']);
      await ctx.db.query('INSERT INTO players (id, name) VALUES (?, ?)', [SMALL, 'forty-two']);
      store = await openStore(ctx.db, ids);
      server = await start(store);
    });
    afterAll(async () => {
      await server?.close();
      await store?.close();
    });

    test.each([
      ['2^63-1', MAX_KEY],
      ['2^53+1', ODD_ABOVE_2_53],
    ])(
      'GIVEN the adapter assigns %s WHEN the id is sent out, read back and posted back THEN it finds that very row',
      async (_what, planned) => {
        ids.plan(planned);
        const created = await post(url('/players'), JSON.stringify({ name: `p${planned}` }));
        expect(created.status).toBe(201);
        const text = await created.text();
        expect(text).toContain(`"id":"${planned}"`); // a decimal string on the wire, never a Number
        const sent = JSON.parse(text) as { id: string; publicId: string; name: string };
        expect(sent.publicId).toBe(playerIds.encode(planned));
        expect(await ctx.db.query('SELECT name FROM players WHERE id = ?', [planned])).toEqual([
          { name: `p${planned}` },
        ]);

        const got = await fetch(url(`/players/${sent.id}`));
        expect(got.status).toBe(200);
        expect(await got.json()).toEqual({
          id: String(planned),
          publicId: sent.publicId,
          name: `p${planned}`,
        });

        const renamed = await post(
          url('/players/rename'),
          JSON.stringify({ id: sent.id, name: `renamed ${planned}` }),
        );
        expect(renamed.status).toBe(200);
        expect(await renamed.json()).toEqual({ id: String(planned), name: `renamed ${planned}` });
        expect(await ctx.db.query('SELECT name FROM players WHERE id = ?', [planned])).toEqual([
          { name: `renamed ${planned}` },
        ]);

        const byPublicId = await fetch(url(`/public/players/${sent.publicId}`));
        expect(await byPublicId.json()).toEqual({
          id: String(planned),
          publicId: sent.publicId,
          name: `renamed ${planned}`,
        });
        expect(await ctx.db.query('SELECT name FROM players WHERE id = ?', [NEIGHBOUR])).toEqual([
          { name: 'neighbour' },
        ]);
      },
    );

    test('GIVEN a well-formed id or public id of no row THEN 404, not a neighbour', async () => {
      expect((await fetch(url(`/players/${NEIGHBOUR + 3n}`))).status).toBe(404);
      expect((await fetch(url(`/public/players/${playerIds.encode(NEIGHBOUR + 3n)}`))).status).toBe(404);
      expect(
        (await post(url('/players/rename'), JSON.stringify({ id: String(NEIGHBOUR + 3n), name: 'x' })))
          .status,
      ).toBe(404);
    });

    const badPaths: Array<[string, string]> = [
      ['2^63 (above the key range)', '9223372036854775808'],
      ['2^64-1', '18446744073709551615'],
      ['a leading zero', '09007199254740993'],
      ['a minus sign', '-9007199254740993'],
      ['a plus sign', '+9007199254740993'],
      ['a fraction', '9007199254740993.0'],
      ['an exponent', '9.007199254740993e15'],
      ['a leading space', '%209007199254740993'],
      ['zero', '0'],
      ['letters', '9007199254740993abc'],
      ['a public id with a typo', `public:${typo(playerIds.encode(NEIGHBOUR))}`],
      ['a public id in the wrong case', `public:${playerIds.encode(NEIGHBOUR).toLowerCase()}`],
      ['a public id too short', `public:${playerIds.encode(NEIGHBOUR).slice(1)}`],
    ];
    test.each(badPaths)(
      'GIVEN a path id with %s THEN 400 saying what is wrong, and no row changes',
      async (_what, bad) => {
        const before = await rows(ctx.db);
        const path = bad.startsWith('public:') ? `/public/players/${bad.slice(7)}` : `/players/${bad}`;
        const res = await fetch(url(path));
        expect(res.status).toBe(400);
        expect(await res.text()).toMatch(/must be/);
        expect(await rows(ctx.db)).toEqual(before);
      },
    );

    // Every bad body id is named as the path ids are: `body.id` (Fastify's schema says `body/id`).
    const badBodies: Array<[string, string]> = [
      // JSON.parse turns this Number into 2^53: without the wire rule it would rename the neighbour.
      ['a JSON number above 2^53', `{"id":9007199254740993,"name":"hijack"}`],
      // Ids cross JSON as strings: a number is refused whatever its value, or 42 would rename row 42.
      ['the JSON number 42', '{"id":42,"name":"hijack"}'],
      ['the JSON number 42.0', '{"id":42.0,"name":"hijack"}'],
      ['the JSON number 4.2e1', '{"id":4.2e1,"name":"hijack"}'],
      ['2^63', '{"id":"9223372036854775808","name":"hijack"}'],
      ['a leading zero', '{"id":"09007199254740992","name":"hijack"}'],
      ['a trailing space', '{"id":"9007199254740992 ","name":"hijack"}'],
      ['a negative number string', '{"id":"-9007199254740992","name":"hijack"}'],
      ['null', '{"id":null,"name":"hijack"}'],
    ];
    test.each(badBodies)(
      'GIVEN a body id with %s THEN 400 saying what is wrong, and no row changes',
      async (_what, body) => {
        const before = await rows(ctx.db);
        const res = await post(url('/players/rename'), body);
        expect(res.status).toBe(400);
        expect(await res.text()).toMatch(
          /"argument":"body\.id","message":"\\"body\.id\\" must be|body\/id must be/,
        );
        expect(await rows(ctx.db)).toEqual(before);
        expect(
          await ctx.db.query('SELECT name FROM players WHERE id IN (?, ?) ORDER BY id', [SMALL, NEIGHBOUR]),
        ).toEqual([{ name: 'forty-two' }, { name: 'neighbour' }]);
      },
    );
  });
}

/** The public id with its sixth character replaced: one typo. */
function typo(publicId: string): string {
  return `${publicId.slice(0, 5)}${publicId[5] === 'x' ? 'y' : 'x'}${publicId.slice(6)}`;
}
