/** How long a segment tag lasts at the rate its counter is moving. */
export interface SegmentRunway {
  readonly tag: string;
  readonly maxId: bigint;
  /** The tag's counter at this allocator's last take (`minId - 1` before any): no id above it was handed out then. */
  readonly highWater: bigint;
  /** `maxId - highWater`: ids no allocator had taken at the last take. */
  readonly remainingIds: bigint;
  /** Ids per second over recent takes (every allocator's); `undefined` until two takes. */
  readonly idsPerSecond: number | undefined;
  /** `remainingIds / idsPerSecond` in ms; `undefined` while the rate is unknown or zero. */
  readonly msLeft: number | undefined;
  /** When the tag runs out at that rate, in ms since 1970 by the allocator's clock. */
  readonly exhaustsAt: number | undefined;
}

/** How many recent takes the rate is measured over. */
const WINDOW = 16;

/** The counter values this allocator saw and when, for {@link SegmentRunway}. */
export class CounterObservations {
  readonly #seen: { readonly at: number; readonly counter: bigint }[] = [];

  record(at: number, counter: bigint): void {
    this.#seen.push({ at, counter });
    if (this.#seen.length > WINDOW) this.#seen.shift();
  }

  runway(tag: string, minId: bigint, maxId: bigint, now: number): SegmentRunway {
    const first = this.#seen[0];
    const last = this.#seen.at(-1);
    const highWater = last?.counter ?? minId - 1n;
    const remainingIds = maxId > highWater ? maxId - highWater : 0n;
    let idsPerSecond: number | undefined;
    if (first !== undefined && last !== undefined && last.at > first.at) {
      idsPerSecond = (Number(last.counter - first.counter) * 1000) / (last.at - first.at);
    }
    const msLeft = idsPerSecond ? (Number(remainingIds) / idsPerSecond) * 1000 : undefined;
    return {
      tag,
      maxId,
      highWater,
      remainingIds,
      idsPerSecond,
      msLeft,
      exhaustsAt: msLeft === undefined ? undefined : now + msLeft,
    };
  }
}
