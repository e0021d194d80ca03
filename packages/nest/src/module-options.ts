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

/**
 * Where the module's generator comes from: a Snowflake on a node-id lease, a segment allocator, or
 * your own generator; exactly one of `lease`, `segment` and `generator`.
 *
 * @example
 * const byLease: SnowkeyGeneratorOptions = { lease: { client: typeormSqlClient(dataSource) } };
 * const bySegment: SnowkeyGeneratorOptions = { segment: { client: typeormSqlClient(dataSource), tag: 'orders' } };
 */
export type SnowkeyGeneratorOptions =
  | SnowkeyLeaseOptions
  | SnowkeySegmentOptions
  | SnowkeyOwnGeneratorOptions;

/**
 * Takes a node-id lease from a store other than the SQL table, for the module's layout and clock:
 * etcd (`leaseEtcdNodeId` of `@snowkey/etcd`), or a store of your own.
 *
 * @example
 * const fromEtcd: LeaseTaker = ({ layout }) => leaseEtcdNodeId({ client: etcd, layout });
 */
export type LeaseTaker = (take: { readonly layout: Layout; readonly clock?: Clock }) => Promise<NodeLease>;

/**
 * A `Snowflake` whose node id is leased while the application starts, before it listens, and
 * released when it shuts down: from the SQL lease table (`leaseNodeId`'s options) or from any
 * store through a {@link LeaseTaker}.
 *
 * @example
 * const options: SnowkeyLeaseOptions = { lease: { client: knexSqlClient(knex), ttlMs: 30_000 }, layout: layouts.default };
 */
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

/**
 * A `SegmentAllocator`: its first segment is taken while the application starts, and it is closed
 * when the application shuts down.
 *
 * @example
 * const options: SnowkeySegmentOptions = { segment: { client: prismaSqlClient(prisma), tag: 'orders' } };
 */
export interface SnowkeySegmentOptions {
  segment: SegmentAllocatorOptions;
  lease?: never;
  generator?: never;
}

/**
 * A generator you built and own: the module hands it out, and neither starts nor stops it.
 *
 * @example
 * const options: SnowkeyOwnGeneratorOptions = { generator: new Snowflake({ workerId: 1 }) };
 */
export interface SnowkeyOwnGeneratorOptions {
  generator: IdGenerator;
  lease?: never;
  segment?: never;
}

/**
 * What `forRoot` and `forRootAsync` take besides the generator: how the module registers itself.
 *
 * @example
 * const registration: SnowkeyRegistration = { isGlobal: true, serializeIds: true, healthPath: 'healthz' };
 */
export interface SnowkeyRegistration {
  /** Provide the generator to every module, not only to the importing one. Default true. */
  isGlobal?: boolean;
  /** Register `IdJsonInterceptor` for every route, so bigints go out as decimal strings. Default true. */
  serializeIds?: boolean;
  /**
   * Serve `GET <healthPath>/ready` and `GET <healthPath>/live`: the `snowkeyHealth()` report, 200
   * when the probe passes, 503 when it fails. Default: no route (use `SnowkeyService.health()` or
   * `SnowkeyHealthIndicator` from `@snowkey/nest/terminus` in a controller of your own).
   */
  healthPath?: string;
}

/**
 * The options of `SnowkeyModule.forRoot`.
 *
 * @example
 * SnowkeyModule.forRoot({ lease: { client: pgSqlClient(pool) }, healthPath: 'healthz' });
 */
export type SnowkeyModuleOptions = SnowkeyGeneratorOptions & SnowkeyRegistration;

/**
 * The options of `SnowkeyModule.forRootAsync`: a factory for the generator options, with the
 * providers it injects (the application's DataSource, Prisma client, Knex, configuration...).
 *
 * @example
 * SnowkeyModule.forRootAsync({
 *   inject: [DataSource],
 *   useFactory: (dataSource: DataSource) => ({ lease: { client: typeormSqlClient(dataSource) } }),
 * });
 */
export interface SnowkeyModuleAsyncOptions extends SnowkeyRegistration {
  /** Modules that export the providers `inject` names. */
  imports?: ModuleMetadata['imports'];
  // biome-ignore lint/suspicious/noExplicitAny: Nest's own factory providers take any arguments.
  useFactory: (...args: any[]) => SnowkeyGeneratorOptions | Promise<SnowkeyGeneratorOptions>;
  /** Injection tokens whose providers are passed to `useFactory`, in order. */
  inject?: Array<InjectionToken | OptionalFactoryDependency>;
}
