import { type IdGenerator, InvalidArgumentError } from '@snowkey/core';

/**
 * The ticket-server scheme (Flickr's two ticket servers; MySQL's `auto_increment_increment` and
 * `auto_increment_offset`): server k of N hands out k, k+N, k+2N... Unique across servers only
 * while every server keeps the same step N. Like MySQL after a change of step, it continues with
 * the first value of its new series above the last one it issued (`after`).
 *
 * @example
 * const s2 = new TicketCounter({ offset: 2, step: 2 });
 * s2.nextId(); s2.nextId();                          // 2n, 4n
 * new TicketCounter({ offset: 2, step: 3, after: 4n }).nextId(); // 5n
 */
export class TicketCounter implements IdGenerator {
  readonly offset: number;
  readonly step: number;
  #last: bigint;

  constructor(options: { offset: number; step: number; after?: bigint }) {
    const { offset, step } = options;
    if (!Number.isInteger(step) || step < 1 || step > 65535) {
      throw new InvalidArgumentError('step', 'an integer in 1..65535', step);
    }
    if (!Number.isInteger(offset) || offset < 1 || offset > step) {
      throw new InvalidArgumentError('offset', `an integer in 1..${step} (the step)`, offset);
    }
    this.offset = offset;
    this.step = step;
    this.#last = options.after ?? 0n;
  }

  nextId(): bigint {
    const offset = BigInt(this.offset);
    const step = BigInt(this.step);
    // The smallest offset + n*step above the last value.
    const n = this.#last < offset ? 0n : (this.#last - offset) / step + 1n;
    this.#last = offset + n * step;
    return this.#last;
  }
}
