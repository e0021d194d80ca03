import { bigintTypeCast, InvalidArgumentError, type TypeCast } from '@snowkey/core';
import { int8ArrayParser, PG_INT8_ARRAY_OID, PG_INT8_OID } from '@snowkey/core/adapter';
import type { Knex } from 'knex';

const DRIVERS = ['pg', 'mysql2', 'mariadb', 'better-sqlite3'] as const;
type Driver = (typeof DRIVERS)[number];
const CLIENT_NAMES: Readonly<Record<string, Driver>> = {
  pg: 'pg',
  postgres: 'pg',
  postgresql: 'pg',
  mysql2: 'mysql2',
  mariadb: 'mariadb',
  'better-sqlite3': 'better-sqlite3',
};

/**
 * A copy of a Knex config whose connections read BIGINT (COUNT(*) too) as an exact `bigint`, by
 * each driver's per-connection setting; on better-sqlite3 every integer reads as bigint.
 *
 * @example
 * const db = knex(withBigintReads({ client: 'pg', connection: process.env.DATABASE_URL }));
 * const [{ id }] = await db('players').select('id'); // bigint
 */
export function withBigintReads<C extends Knex.Config>(config: C): C {
  if (config === null || typeof config !== 'object') {
    throw new InvalidArgumentError('config', 'a Knex config object', config);
  }
  if (config.connectionPool !== undefined) {
    throw new InvalidArgumentError(
      'config.connectionPool',
      'absent: a native pool you built yourself needs the setting where you build it (bigintTypeCast() for mysql2; safeIntegers for better-sqlite3)',
      config.connectionPool,
    );
  }
  const driver = driverOf(config.client);
  switch (driver) {
    case 'pg':
      return { ...config, pool: { ...config.pool, afterCreate: chainAfterCreate(config.pool?.afterCreate) } };
    case 'mysql2':
      return {
        ...config,
        connection: mapConnection(config.connection, driver, (c) => ({
          ...c,
          typeCast: bigintTypeCast(userTypeCast(c.typeCast)),
        })),
      };
    case 'mariadb':
      return {
        ...config,
        connection: mapConnection(config.connection, driver, (c) => ({ ...c, bigIntAsNumber: false })),
      };
    case 'better-sqlite3':
      return {
        ...config,
        // Knex's SQLite clients cannot format a bigint binding into an error message: they throw
        // "str.replace is not a function" instead of the database's error. Without compiling the
        // SQL, the message keeps the placeholders and the database's own words.
        compileSqlOnError: config.compileSqlOnError ?? false,
        connection: mapConnection(config.connection, driver, (c) => ({
          ...c,
          options: { ...(c.options as object | undefined), safeIntegers: true },
        })),
      };
  }
}

function driverOf(client: unknown): Driver {
  const name =
    typeof client === 'string'
      ? client
      : typeof client === 'function'
        ? (client as { prototype?: { driverName?: unknown } }).prototype?.driverName
        : undefined;
  const driver = typeof name === 'string' ? CLIENT_NAMES[name] : undefined;
  if (!driver) {
    throw new InvalidArgumentError('config.client', `one of ${DRIVERS.join(', ')}`, name ?? client);
  }
  return driver;
}

type ConnectionObject = Record<string, unknown>;

/** Applies `patch` to a static connection object, or to what a connection function returns. */
function mapConnection(
  connection: unknown,
  driver: Driver,
  patch: (c: ConnectionObject) => ConnectionObject,
): Knex.Config['connection'] {
  if (typeof connection === 'function') {
    const provide = connection as () => ConnectionObject | Promise<ConnectionObject>;
    return (async () => patch(await provide())) as Knex.Config['connection'];
  }
  // mysql2 reads a URL from `uri`, so a connection string can carry the setting beside it.
  if (typeof connection === 'string' && driver === 'mysql2') return patch({ uri: connection });
  if (connection === null || typeof connection !== 'object') {
    throw new InvalidArgumentError(
      'config.connection',
      `a connection object or a function returning one, for ${driver}`,
      connection,
    );
  }
  return patch(connection as ConnectionObject);
}

function userTypeCast(typeCast: unknown): TypeCast | undefined {
  if (typeCast === undefined || typeCast === true) return undefined;
  if (typeof typeCast === 'function') return typeCast as TypeCast;
  throw new InvalidArgumentError(
    'config.connection.typeCast',
    'a function or true (false turns off all casting, BIGINT included)',
    typeCast,
  );
}

type AfterCreate = (connection: unknown, done: (err: unknown, connection: unknown) => void) => void;

interface PgTypes {
  setTypeParser(oid: number, format: 'text', parse: (text: string) => unknown): void;
  getTypeParser(oid: number, format: 'text'): (text: string) => unknown;
}

/** Sets the int8 parsers on each new pg client, then hands over to the user's afterCreate. */
function chainAfterCreate(user: unknown): AfterCreate {
  if (user !== undefined && typeof user !== 'function') {
    throw new InvalidArgumentError('config.pool.afterCreate', 'a function (connection, done)', user);
  }
  return (connection, done) => {
    try {
      const client = connection as PgTypes;
      client.setTypeParser(PG_INT8_OID, 'text', BigInt);
      // The default int8[] parser yields strings; keep its array parsing and convert the elements.
      client.setTypeParser(
        PG_INT8_ARRAY_OID,
        'text',
        int8ArrayParser(client.getTypeParser(PG_INT8_ARRAY_OID, 'text')),
      );
    } catch (err) {
      done(err, connection);
      return;
    }
    if (user) (user as AfterCreate)(connection, done);
    else done(null, connection);
  };
}
