/**
 * The options of `new Snowflake` besides node fields. A node field may not take one of these
 * names: `new Snowflake({ layout, clock: 5 })` could not tell a field from the option.
 */
export const GENERATOR_OPTION_NAMES = Object.freeze([
  'layout',
  'epoch',
  'nodeId',
  'clock',
  'sequenceOverflow',
  'maxBorrowMs',
  'clockRollbackToleranceMs',
  'balanceModulo',
  'lease',
  'fence',
] as const);

/** The parts `decode` always returns; a node field may not shadow one. */
export const DECODED_PART_NAMES = Object.freeze(['id', 'timestamp', 'date', 'sequence'] as const);

/**
 * Why `name` cannot be a node field, or undefined when it can. Names that `Object.prototype`
 * already has (`constructor`, `toString`, `__proto__`, ...) are refused too: as keys of a plain
 * options object they read as the inherited function when absent, and `__proto__` cannot be
 * set as an own property by an object literal at all.
 */
export function reservedNameReason(name: string): string | undefined {
  if ((DECODED_PART_NAMES as readonly string[]).includes(name)) return 'a part every decoded id has';
  if ((GENERATOR_OPTION_NAMES as readonly string[]).includes(name)) return 'an option of new Snowflake()';
  if (name in Object.prototype) return 'a property every JavaScript object inherits (Object.prototype)';
  return undefined;
}
