import { Snowflake, sqliteKeyGuardDdl } from '@snowkey/core';
import { v4 as uuidv4, v7 as uuidv7 } from 'uuid';
import type { Dialect } from '../fresh-database.js';

/** How a table gets its keys (bench/README.md#insert-benchmark); the last two snowkey kinds are SQLite's. */
const KEY_KINDS = [
  'autoincrement',
  'snowkey',
  'snowkey-guarded',
  'snowkey-bigint-pk',
  'uuidv4',
  'uuidv7',
] as const;
export type KeyKind = (typeof KEY_KINDS)[number];

export const keyKinds = (dialect: Dialect): KeyKind[] =>
  KEY_KINDS.filter((k) => dialect === 'sqlite' || !['snowkey-guarded', 'snowkey-bigint-pk'].includes(k));

export const PAYLOAD_COLUMNS = ['owner_id', 'name', 'score', 'created_at'] as const;

/** `CREATE TABLE` (and the guard trigger) for one kind; the payload columns are the same for all. */
export function createTableSql(dialect: Dialect, kind: KeyKind, table: string): string[] {
  const uuid = kind === 'uuidv4' || kind === 'uuidv7';
  const auto = kind === 'autoincrement';
  const key = {
    postgres: auto ? 'BIGINT GENERATED ALWAYS AS IDENTITY' : uuid ? 'UUID' : 'BIGINT',
    mysql: auto ? 'BIGINT NOT NULL AUTO_INCREMENT' : uuid ? 'BINARY(16) NOT NULL' : 'BIGINT NOT NULL',
    sqlite: uuid ? 'BLOB NOT NULL' : kind === 'snowkey-bigint-pk' ? 'BIGINT NOT NULL' : 'INTEGER',
  }[dialect];
  const engine = dialect === 'mysql' ? ' ENGINE=InnoDB' : '';
  const create = `CREATE TABLE ${table} (id ${key} PRIMARY KEY, owner_id BIGINT NOT NULL, name VARCHAR(32) NOT NULL, score INT NOT NULL, created_at BIGINT NOT NULL)${engine}`;
  return kind === 'snowkey-guarded' && dialect === 'sqlite' ? [create, sqliteKeyGuardDdl(table)] : [create];
}

/** Makes `count` keys for one batch, as the dialect's driver binds them; none for autoincrement. */
export function keySource(dialect: Dialect, kind: KeyKind): (count: number) => unknown[] | undefined {
  if (kind === 'autoincrement') return () => undefined;
  if (kind === 'uuidv4' || kind === 'uuidv7') {
    const make = kind === 'uuidv4' ? uuidv4 : uuidv7;
    if (dialect === 'postgres') return (count) => Array.from({ length: count }, () => make());
    return (count) => Array.from({ length: count }, () => Buffer.from(make({}, new Uint8Array(16))));
  }
  const gen = new Snowflake({ workerId: 1 });
  return (count) => gen.nextIds(count);
}

/** Row `i`'s payload, the same for every key kind; Knuth's multiplicative hash spreads it repeatably. */
export function payloadRow(i: number): [ownerId: bigint, name: string, score: number, createdAt: bigint] {
  const h = Math.imul(i + 1, 2654435761) >>> 0;
  return [
    400_000_000_000_000_000n + BigInt(h),
    `player-${i.toString(36)}`,
    h % 100_000,
    1_767_225_600_000n + BigInt(i),
  ];
}
