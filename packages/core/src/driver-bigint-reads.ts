// The driver settings that make BIGINT read back as an exact bigint, written once for every
// adapter that hands them to the user (Knex sets them per connection, Kysely names them).

/** PostgreSQL's type oid of int8 (BIGINT). */
export const PG_INT8_OID = 20;
/** PostgreSQL's type oid of int8[]. */
export const PG_INT8_ARRAY_OID = 1016;
/** The MySQL wire type of BIGINT (and of COUNT(*), LAST_INSERT_ID()...). */
const LONGLONG = 'LONGLONG';

/** The parts of a mysql2 field that a `typeCast` function may read. */
export interface TypeCastField {
  readonly type: string;
  string(): string | null;
}

/** A mysql2 / mysqljs `typeCast` function. */
export type TypeCast = (field: TypeCastField, next: () => unknown) => unknown;

/**
 * A mysql2 `typeCast` that reads every BIGINT as an exact `bigint` and leaves the rest to `inner`.
 *
 * @example
 * const typeCast = bigintTypeCast(); // mysql.createPool({ uri, typeCast })
 */
export function bigintTypeCast(inner?: TypeCast): TypeCast {
  return (field, next) => {
    if (field.type === LONGLONG) {
      const text = field.string();
      return text === null ? null : BigInt(text);
    }
    return inner ? inner(field, next) : next();
  };
}

/** A pg int8[] parser: pg's own `parseArray`, its string elements turned into bigints. */
export function int8ArrayParser(parseArray: (text: string) => unknown): (text: string) => unknown {
  return (text) => toBigints(parseArray(text));
}

function toBigints(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(toBigints);
  return typeof value === 'string' ? BigInt(value) : value;
}
