import { Snowflake, sqliteKeyGuardDdl } from '@snowkey/core';
import { v4 as uuidv4, v7 as uuidv7 } from 'uuid';
import type { BenchDialect } from './bench-database.js';

/** How a table gets its keys (bench/README.md#insert-benchmark); the snowkey-* variants but one are SQLite's. */
export const KEY_KINDS = [
  'autoincrement',
  'snowkey',
  'snowkey-guarded',
  'snowkey-bigint-pk',
  'uuidv4',
  'uuidv7',
] as const;
export type KeyKind = (typeof KEY_KINDS)[number];

/** The kinds that exist on a dialect. */
export function kindsFor(dialect: BenchDialect, wanted: readonly KeyKind[]): KeyKind[] {
  return wanted.filter((k) => dialect === 'sqlite' || (k !== 'snowkey-guarded' && k !== 'snowkey-bigint-pk'));
}

/** The payload every table has besides its key, the same for every kind. */
export const PAYLOAD_COLUMNS = ['owner_id', 'name', 'score', 'created_at'] as const;

/** `CREATE TABLE` (and the guard trigger) for one kind; the payload columns are the same everywhere. */
export function createTableSql(dialect: BenchDialect, kind: KeyKind, table: string): string[] {
  const [postgres, mysql, sqlite] =
    kind === 'autoincrement'
      ? [
          'BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY',
          'BIGINT NOT NULL AUTO_INCREMENT PRIMARY KEY',
          'INTEGER PRIMARY KEY',
        ]
      : kind === 'uuidv4' || kind === 'uuidv7'
        ? ['UUID PRIMARY KEY', 'BINARY(16) NOT NULL PRIMARY KEY', 'BLOB NOT NULL PRIMARY KEY']
        : [
            'BIGINT PRIMARY KEY',
            'BIGINT NOT NULL PRIMARY KEY',
            kind === 'snowkey-bigint-pk' ? 'BIGINT NOT NULL PRIMARY KEY' : 'INTEGER PRIMARY KEY',
          ];
  const key = { postgres, mysql, sqlite }[dialect];
  const engine = dialect === 'mysql' ? ' ENGINE=InnoDB' : '';
  const create = `CREATE TABLE ${table} (id ${key}, owner_id BIGINT NOT NULL, name VARCHAR(32) NOT NULL, score INT NOT NULL, created_at BIGINT NOT NULL)${engine}`;
  return kind === 'snowkey-guarded' && dialect === 'sqlite' ? [create, sqliteKeyGuardDdl(table)] : [create];
}

/** Makes `count` keys for one batch, in the form the dialect's driver binds; none for autoincrement. */
export function keySource(dialect: BenchDialect, kind: KeyKind): (count: number) => unknown[] | undefined {
  if (kind === 'autoincrement') return () => undefined;
  if (kind === 'uuidv4' || kind === 'uuidv7') {
    const make = kind === 'uuidv4' ? uuidv4 : uuidv7;
    if (dialect === 'postgres') return (count) => Array.from({ length: count }, () => make());
    return (count) => Array.from({ length: count }, () => Buffer.from(make({}, new Uint8Array(16))));
  }
  const gen = new Snowflake({ workerId: 1 });
  return (count) => gen.nextIds(count);
}

/** The payload of row `i`: the same for every key kind, so only the key differs between tables. */
export function payloadRow(i: number): [ownerId: bigint, name: string, score: number, createdAt: bigint] {
  // A fixed pseudo-random spread (Knuth's multiplicative hash) keeps values varied but repeatable.
  const h = Math.imul(i + 1, 2654435761) >>> 0;
  return [
    400_000_000_000_000_000n + BigInt(h),
    `player-${i.toString(36)}`,
    h % 100_000,
    1_767_225_600_000n + BigInt(i),
  ];
}

/** One row's payload, as the ORMs take it. */
export type BenchRow = { ownerId: bigint; name: string; score: number; createdAt: bigint };

/** Rows `offset` .. `offset + count - 1` as the ORMs take them (camelCase properties). */
export function benchRows(count: number, offset: number): BenchRow[] {
  return Array.from({ length: count }, (_, i) => {
    const [ownerId, name, score, createdAt] = payloadRow(offset + i);
    return { ownerId, name, score, createdAt };
  });
}
