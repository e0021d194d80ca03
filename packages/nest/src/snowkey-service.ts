import { Logger, type OnApplicationShutdown } from '@nestjs/common';
import {
  type IdGenerator,
  InvalidArgumentError,
  layouts,
  leaseNodeId,
  type NodeLease,
  SegmentAllocator,
  Snowflake,
  type SnowkeyHealth,
  snowkeyHealth,
} from '@snowkey/core';
import type { SnowkeyGeneratorOptions } from './module-options.js';

const EXPECTED =
  'an object with exactly one of lease (leaseNodeId options with a client), segment (SegmentAllocator options) or generator (an IdGenerator)';

/**
 * The module's generator and the lease or allocator it runs on, released or closed at shutdown.
 *
 * @example
 * @Controller('healthz')
 * class HealthController {
 *   constructor(@Inject(SnowkeyService) private readonly snowkey: SnowkeyService) {}
 *   @Get('ready') ready() { return this.snowkey.health(); }
 * }
 */
export class SnowkeyService implements OnApplicationShutdown {
  /** The generator the module provides under `SNOWKEY_GENERATOR`. */
  readonly generator: IdGenerator;
  /** The node-id lease the generator runs on (`lease` option), else undefined. */
  readonly lease: NodeLease | undefined;
  /** The allocator (`segment` option, or a `SegmentAllocator` you gave as `generator`), else undefined. */
  readonly segment: SegmentAllocator | undefined;
  readonly #owned: boolean;
  #stopping: Promise<void> | undefined;

  private constructor(
    generator: IdGenerator,
    parts: { lease?: NodeLease; segment?: SegmentAllocator; owned: boolean },
  ) {
    this.generator = generator;
    this.lease = parts.lease;
    this.segment = parts.segment;
    this.#owned = parts.owned;
  }

  /**
   * Builds the generator, leasing a node id or taking the first segment before it resolves, so the
   * application listens only once ids can be issued.
   *
   * @example
   * const snowkey = await SnowkeyService.start({ lease: { client: pgSqlClient(pool) } });
   */
  static async start(options: SnowkeyGeneratorOptions): Promise<SnowkeyService> {
    if (options === null || typeof options !== 'object') {
      throw new InvalidArgumentError('options', EXPECTED, options);
    }
    const given = (['lease', 'segment', 'generator'] as const).filter((k) => options[k] !== undefined);
    if (given.length !== 1) {
      throw new InvalidArgumentError(
        'options',
        EXPECTED,
        given.length === 0 ? 'none of them' : `${given.join(' and ')}`,
      );
    }
    if (options.generator !== undefined) {
      const generator = options.generator;
      if (typeof generator !== 'object' || generator === null || typeof generator.nextId !== 'function') {
        throw new InvalidArgumentError(
          'options.generator',
          'an IdGenerator (an object with nextId())',
          generator,
        );
      }
      const segment = generator instanceof SegmentAllocator ? generator : undefined;
      return new SnowkeyService(generator, { ...(segment && { segment }), owned: false });
    }
    if (options.segment !== undefined) {
      const segment = new SegmentAllocator(options.segment);
      try {
        await segment.ready();
      } catch (error) {
        await segment.close();
        throw error;
      }
      return new SnowkeyService(segment, { segment, owned: true });
    }
    const { lease: leaseOptions, layout = layouts.default, clock, snowflake } = options;
    if (leaseOptions === null || (typeof leaseOptions !== 'object' && typeof leaseOptions !== 'function')) {
      throw new InvalidArgumentError(
        'options.lease',
        'leaseNodeId options with a client, or a function that takes a lease',
        leaseOptions,
      );
    }
    if (snowflake !== undefined && (snowflake === null || typeof snowflake !== 'object')) {
      throw new InvalidArgumentError('options.snowflake', 'Snowflake options or undefined', snowflake);
    }
    const lease =
      typeof leaseOptions === 'function'
        ? await leaseOptions({ layout, ...(clock && { clock }) })
        : await leaseNodeId({ ...leaseOptions, layout, ...(clock && { clock }) });
    if (lease === null || typeof lease !== 'object' || typeof lease.release !== 'function' || !lease.fence) {
      throw new InvalidArgumentError('options.lease()', 'a promise of a NodeLease', lease);
    }
    try {
      const generator = new Snowflake({ ...snowflake, layout, ...(clock && { clock }), lease });
      return new SnowkeyService(generator, { lease, owned: true });
    } catch (error) {
      await lease.release();
      throw error;
    }
  }

  /** The next id of the module's generator. */
  nextId(): bigint {
    return this.generator.nextId();
  }

  /** `snowkeyHealth()` of the generator, its lease and its allocator: plain JSON for a probe. */
  health(): SnowkeyHealth {
    const generator = this.generator instanceof Snowflake ? this.generator : undefined;
    return snowkeyHealth({
      ...(generator && { generator }),
      ...(this.lease && { lease: this.lease }),
      ...(this.segment && { segments: [this.segment] }),
    });
  }

  /** Releases the lease or closes the allocator; a failure is logged (the lease frees itself at expiry). */
  async onApplicationShutdown(): Promise<void> {
    this.#stopping ??= this.#stop();
    return this.#stopping;
  }

  async #stop(): Promise<void> {
    if (!this.#owned) return;
    try {
      if (this.lease) await this.lease.release();
      if (this.segment) await this.segment.close();
    } catch (error) {
      new Logger('SnowkeyModule').warn(
        `could not release the node-id lease (${(error as Error).message}); it frees itself at expiry`,
      );
    }
  }
}
