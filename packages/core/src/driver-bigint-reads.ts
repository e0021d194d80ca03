// The driver settings that make BIGINT read back as an exact bigint, written once for every
// adapter that hands them to the user (Knex sets them per connection, Kysely names them).

/** PostgreSQL's type oid of int8 (BIGINT). */
export const PG_INT8_OID = 20;
/** PostgreSQL's type oid of int8[]. */
export const PG_INT8_ARRAY_OID = 1016;
/** The MySQL wire type of BIGINT (and of COUNT(*), LAST_INSERT_ID()...). */
const LONGLONG = 'LONGLONG';

/**
 * The parts of a mysql2 field that a `typeCast` function may read.
 *
 * @example
 * const isBigint = (field: TypeCastField) => field.type === 'LONGLONG';
 */
export interface TypeCastField {
  readonly type: string;
  string(): string | null;
}

/**
 * A mysql2 / mysqljs `typeCast` function.
 *
 * @example
 * const tinyAsBoolean: TypeCast = (field, next) => (field.type === 'TINY' ? field.string() === '1' : next());
 */
export type TypeCast = (field: TypeCastField, next: () => unknown) => unknown;

/**
 * A mysql2 `typeCast` that reads every BIGINT (type LONGLONG) as an exact `bigint`, from the
 * driver's text, and leaves every other type to `next` (or to your own `typeCast`, when given).
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

/**
 * A pg text parser for int8[] that keeps pg's own array parsing (`parseArray`, the default parser
 * of oid 1016) and turns its string elements, nested arrays included, into bigints.
 *
 * @example
 * // with pg: int8ArrayParser(client.getTypeParser(PG_INT8_ARRAY_OID, 'text'))
 * const parseInt8Array = int8ArrayParser((text) => text.slice(1, -1).split(','));
 * parseInt8Array('{1,9223372036854775807}'); // [1n, 9223372036854775807n]
 */
export function int8ArrayParser(parseArray: (text: string) => unknown): (text: string) => unknown {
  return (text) => toBigints(parseArray(text));
}

function toBigints(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(toBigints);
  return typeof value === 'string' ? BigInt(value) : value;
}
