import { hasExactSqliteIntegers } from '@snowkey/core/adapter';
import type { DataSource } from 'typeorm';

const PROBE = '9223372036854775807';

/**
 * Why this DataSource's driver would hand BIGINT back rounded, one sentence per cause naming the
 * option to set; empty when every BIGINT comes back exactly (as a string, a bigint or a safe Number).
 */
export function driverPrecisionProblems(dataSource: DataSource): string[] {
  const options = dataSource.options as { type: string; supportBigNumbers?: boolean; extra?: object };
  const driver = dataSource.driver as { databaseConnection?: unknown; postgres?: unknown };
  switch (options.type) {
    case 'mysql':
    case 'mariadb':
    case 'aurora-mysql': {
      const extra = (options.extra ?? {}) as { supportBigNumbers?: boolean };
      if (options.supportBigNumbers === false || extra.supportBigNumbers === false) {
        return [
          'mysql2 returns BIGINT as a rounded Number when `supportBigNumbers` is false: remove `supportBigNumbers: false` from the DataSource options (TypeORM defaults it to true)',
        ];
      }
      return [];
    }
    case 'better-sqlite3':
      return hasExactSqliteIntegers(driver.databaseConnection)
        ? []
        : [
            'better-sqlite3 returns BIGINT as a Number and silently rounds ids above 2^53: set `prepareDatabase: exactSqliteIntegers` (from @snowkey/typeorm) in the DataSource options',
          ];
    case 'sqlite':
    case 'sqljs':
      return [
        `the "${options.type}" driver returns BIGINT as a Number and rounds ids above 2^53, with no option to prevent it: use type "better-sqlite3" with \`prepareDatabase: exactSqliteIntegers\``,
      ];
    case 'postgres':
      return pgInt8Problems(driver.postgres);
    default:
      return [];
  }
}

/** A global `types.setTypeParser(20, ...)` that turns INT8 into a Number would round ids. */
function pgInt8Problems(pg: unknown): string[] {
  const types = (pg as { types?: { getTypeParser?: (oid: number, format?: string) => unknown } })?.types;
  const parser = types?.getTypeParser?.(20, 'text');
  if (typeof parser !== 'function') return [];
  const parsed: unknown = parser(PROBE);
  if (parsed === PROBE || parsed === BigInt(PROBE)) return [];
  return [
    `a pg type parser for INT8 (OID 20) turns ${PROBE} into ${typeof parsed === 'number' ? `the Number ${parsed}` : String(parsed)}: remove that \`types.setTypeParser(20, ...)\` or make it return a string or a bigint`,
  ];
}
