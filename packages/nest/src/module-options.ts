import type { InjectionToken, ModuleMetadata, OptionalFactoryDependency } from '@nestjs/common';
import type {
  Clock,
  IdGenerator,
  Layout,
  LeaseNodeIdOptions,
  NodeLease,
  SegmentAllocatorOptions,
  SnowflakeOptions,
} from '@snowkey/core';

/** Exactly one of `lease`, `segment` and `generator`. */
export type SnowkeyGeneratorOptions =
  | SnowkeyLeaseOptions
  | SnowkeySegmentOptions
  | SnowkeyOwnGeneratorOptions;

/** Takes a node-id lease from a store other than the SQL table (etcd, your own). */
export type LeaseTaker = (take: { readonly layout: Layout; readonly clock?: Clock }) => Promise<NodeLease>;

/** A `Snowflake` on a lease taken before the application listens and released at shutdown. */
export interface SnowkeyLeaseOptions {
  /** `leaseNodeId`'s options but the layout and the clock (given below for both lease and generator), or a {@link LeaseTaker}. */
  lease: Omit<LeaseNodeIdOptions, 'layout' | 'clock'> | LeaseTaker;
  /** The generator's layout, whose node bits are leased. Default `layouts.default`. */
  layout?: Layout;
  /** Ms since 1970, for the lease and the generator. Default core's `monotonicClock`. */
  clock?: Clock;
  /** The generator's other options (`sequenceOverflow`, `maxBorrowMs`, `epoch`, ...). */
  snowflake?: Omit<SnowflakeOptions<string>, 'layout' | 'clock' | 'fence' | 'lease' | 'nodeId'>;
  segment?: never;
  generator?: never;
}

/** A `SegmentAllocator`, its first segment taken at start-up, closed at shutdown. */
export interface SnowkeySegmentOptions {
  segment: SegmentAllocatorOptions;
  lease?: never;
  generator?: never;
}

/** A generator you built and own: the module hands it out, and neither starts nor stops it. */
export interface SnowkeyOwnGeneratorOptions {
  generator: IdGenerator;
  lease?: never;
  segment?: never;
}

/** What `forRoot` and `forRootAsync` take besides the generator: how the module registers itself. */
export interface SnowkeyRegistration {
  /** Provide the generator to every module, not only to the importing one. Default true. */
  isGlobal?: boolean;
  /** Register `IdJsonInterceptor` for every route, so bigints go out as decimal strings. Default true. */
  serializeIds?: boolean;
  /** Serve `GET <healthPath>/ready` and `/live` (200 or 503). Default: no route. */
  healthPath?: string;
}

/** The options of `SnowkeyModule.forRoot`. */
export type SnowkeyModuleOptions = SnowkeyGeneratorOptions & SnowkeyRegistration;

/** The options of `SnowkeyModule.forRootAsync`: a factory and the providers it injects. */
export interface SnowkeyModuleAsyncOptions extends SnowkeyRegistration {
  /** Modules that export the providers `inject` names. */
  imports?: ModuleMetadata['imports'];
  // biome-ignore lint/suspicious/noExplicitAny: Nest's own factory providers take any arguments.
  useFactory: (...args: any[]) => SnowkeyGeneratorOptions | Promise<SnowkeyGeneratorOptions>;
  /** Injection tokens whose providers are passed to `useFactory`, in order. */
  inject?: Array<InjectionToken | OptionalFactoryDependency>;
}
