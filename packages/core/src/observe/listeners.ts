import { InvalidArgumentError } from '../errors.js';

/**
 * The listeners of one object's events (see `subscribe()` on {@link Snowflake}, {@link NodeLease}
 * and {@link SegmentAllocator}). Emitting with no listener is one length check; a listener that
 * throws is ignored, so a metrics exporter can never break id generation.
 */
export class Listeners<E> {
  #list: readonly ((event: E) => void)[] = [];

  get active(): boolean {
    return this.#list.length > 0;
  }

  add(listener: (event: E) => void, argument = 'listener'): () => void {
    if (typeof listener !== 'function') throw new InvalidArgumentError(argument, 'a function', listener);
    this.#list = [...this.#list, listener];
    return () => {
      this.#list = this.#list.filter((l) => l !== listener);
    };
  }

  emit(event: E): void {
    for (const listener of this.#list) {
      try {
        listener(event);
      } catch {
        // a listener's failure is its own; ids keep flowing
      }
    }
  }
}

/** The last error an object met, and when by its own clock (ms since 1970). */
export interface LastError {
  readonly error: Error;
  readonly at: number;
}

/** `error` as an Error (a store may reject with anything). */
export function asError(error: unknown): Error {
  return error instanceof Error ? error : new Error(String(error));
}
