/**
 * The constructor behind {@link copyRow}: instances are plain objects (their prototype is
 * `Object.prototype`, their `constructor` is `Object`), but V8 sizes objects made by a constructor
 * from the properties its first instances took, where a `{}` literal has room for four: a row of
 * four columns copied into `{}` moves to a second, out-of-object property store as soon as its id
 * is added, one more allocation per row.
 */
function PlainRow(): void {}
PlainRow.prototype = Object.prototype;

/**
 * A plain-object copy of `row`'s own enumerable properties (as `{ ...row }`: an own `__proto__`
 * key, which `JSON.parse` makes, is copied as a property and never sets the copy's prototype), with
 * room for the id columns an adapter adds to it without reallocating: the copy adapters make so a
 * caller's rows are never mutated.
 */
export function copyRow<T extends object>(row: T): T & Record<string, unknown> {
  // Object.assign would call the __proto__ setter with the row's value.
  if (Object.hasOwn(row, '__proto__')) return { ...row } as T & Record<string, unknown>;
  return Object.assign(new (PlainRow as unknown as new () => object)(), row) as T & Record<string, unknown>;
}
