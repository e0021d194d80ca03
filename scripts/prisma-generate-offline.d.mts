/** A dialect the repository's Prisma clients are generated for. */
export type PrismaDialect = 'postgres' | 'mysql' | 'sqlite';

/** Options of {@link ensurePrismaClients}. */
export interface EnsurePrismaClientsOptions<D extends PrismaDialect = PrismaDialect> {
  /** The package whose `prisma` devDependency runs the generate (its directory). */
  readonly packageDir: string;
  /** A `.prisma` file with models only; the generator and datasource blocks are added per dialect. */
  readonly models: string;
  /** Clients go to `<outDir>/<dialect>/client` (keep it gitignored). */
  readonly outDir: string;
  /** Default: all three. */
  readonly dialects?: readonly D[];
  /**
   * Also run @snowkey/prisma's generator (from source), which writes
   * `<outDir>/<dialect>/snowkey/data-model.ts`. Default: false.
   */
  readonly snowkeyDataModel?: boolean;
}

/**
 * Makes sure `<outDir>/<dialect>/client` holds a Prisma 7 client generated offline from `models`
 * for each dialect (regenerated only when the schema or the Prisma version changed; parallel
 * callers wait on a lock), and returns each client's directory.
 *
 * @example
 * const dirs = ensurePrismaClients({ packageDir, models: join(packageDir, 'prisma/game.prisma'), outDir: join(packageDir, 'generated'), dialects: ['sqlite'] });
 * const { PrismaClient } = await import(join(dirs.sqlite, 'client.ts'));
 */
export function ensurePrismaClients<D extends PrismaDialect = PrismaDialect>(
  options: EnsurePrismaClientsOptions<D>,
): Record<D, string>;
