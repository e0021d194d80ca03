import { Snowflake, sqliteKeyGuardDdl } from '@snowkey/core';
import { v4 as uuidv4, v7 as uuidv7 } from 'uuid';
import type { BenchDialect } from './bench-database.js';

/** How a table gets its keys (bench/README.md#insert-benchmark); the snowkey-* variants but one are SQLite's. */
export type KeyKind =
  | 'autoincrement'
  | 'snowkey'
  | 'snowkey-guarded'
  | 'snowkey-bigint-pk'
  | 'uuidv4'
  | 'uuidv7';

export const KEY_KINDS: readonly KeyKind[] = [
  'autoincrement',
  'snowkey',
  'snowkey-guarded',
  'snowkey-bigint-pk',
  'uuidv4',
  'uuidv7',
];

const SQLITE_ONLY: readonly KeyKind[] = ['snowkey-guarded', 'snowkey-bigint-pk'];

/** The kinds that exist on a dialect. */
export function kindsFor(dialect: BenchDialect, wanted: readonly KeyKind[]): KeyKind[] {
  return wanted.filter((k) => !SQLITE_ONLY.includes(k) || dialect === 'sqlite');
}

/** The payload every table has besides its key, the same for every kind. */
export const PAYLOAD_COLUMNS = ['owner_id', 'name', 'score', 'created_at'] as const;

/** The key column's declaration for `kind` on `dialect`. */
function keyColumn(dialect: BenchDialect, kind: KeyKind): string {
  const byDialect = (postgres: string, mysql: string, sqlite: string) =>
    ({ postgres, mysql, sqlite })[dialect];
  if (kind === 'autoincrement')
    return byDialect(
      'id BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY',
      'id BIGINT NOT NULL AUTO_INCREMENT PRIMARY KEY',
      'id INTEGER PRIMARY KEY',
    );
  if (kind === 'uuidv4' || kind === 'uuidv7')
    return byDialect(
      'id UUID PRIMARY KEY',
      'id BINARY(16) NOT NULL PRIMARY KEY',
      'id BLOB NOT NULL PRIMARY KEY',
    );
  const sqlite = kind === 'snowkey-bigint-pk' ? 'id BIGINT NOT NULL PRIMARY KEY' : 'id INTEGER PRIMARY KEY';
  return byDialect('id BIGINT PRIMARY KEY', 'id BIGINT NOT NULL PRIMARY KEY', sqlite);
}

/** `CREATE TABLE` (and the guard trigger) for one kind; the payload columns are the same everywhere. */
export function createTableSql(dialect: BenchDialect, kind: KeyKind, table: string): string[] {
  const engine = dialect === 'mysql' ? ' ENGINE=InnoDB' : '';
  const create = `CREATE TABLE ${table} (${keyColumn(dialect, kind)}, owner_id BIGINT NOT NULL, name VARCHAR(32) NOT NULL, score INT NOT NULL, created_at BIGINT NOT NULL)${engine}`;
  if (kind !== 'snowkey-guarded' || dialect !== 'sqlite') return [create];
  return [create, sqliteKeyGuardDdl(table)];
}

/** Makes `count` keys for one batch, in the form the dialect's driver binds; none for autoincrement. */
export type KeySource = (count: number) => unknown[] | undefined;

/** A key source for `kind`: a fresh generator per load. */
export function keySource(dialect: BenchDialect, kind: KeyKind): KeySource {
  switch (kind) {
    case 'autoincrement':
      return () => undefined;
    case 'snowkey':
    case 'snowkey-guarded':
    case 'snowkey-bigint-pk': {
      const gen = new Snowflake({ workerId: 1 });
      return (count) => gen.nextIds(count);
    }
    case 'uuidv4':
    case 'uuidv7': {
      const make = kind === 'uuidv4' ? uuidv4 : uuidv7;
      if (dialect === 'postgres') return (count) => Array.from({ length: count }, () => make());
      return (count) => Array.from({ length: count }, () => Buffer.from(make({}, new Uint8Array(16))));
    }
  }
}
