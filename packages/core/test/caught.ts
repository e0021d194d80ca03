/**
 * What `fn` throws, for assertions on the error's fields. It fails the test when `fn` throws
 * nothing, so the assertions that follow can never be skipped (as they are inside a `catch`).
 *
 * @example
 * const err = caught(() => gen.nextId());
 * expect(err).toBeInstanceOf(ClockMovedBackwardsError);
 */
export function caught(fn: () => unknown): unknown {
  try {
    fn();
  } catch (err) {
    return err;
  }
  throw new Error('expected a throw, but nothing was thrown');
}
