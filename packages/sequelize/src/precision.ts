import type { Sequelize } from 'sequelize';
import { isBetterSqlite3Module } from './better-sqlite3-module.js';

const PROBE = '9223372036854775807';
const TESTED = ['postgres', 'mysql', 'mariadb', 'sqlite'];

/**
 * Why this Sequelize instance would hand a BIGINT back rounded, one sentence per cause naming the
 * setting to change; empty when every BIGINT comes back exactly (a string, a bigint, or a safe Number).
 */
export function precisionProblems(sequelize: Sequelize): string[] {
  const dialect = sequelize.getDialect();
  const options = (sequelize as unknown as { options: { dialectOptions?: Record<string, unknown> } }).options;
  const dialectOptions = options.dialectOptions ?? {};
  const manager = sequelize.connectionManager as unknown as {
    lib?: unknown;
    getTypeParser?: (oid: number, format?: string) => unknown;
  };
  switch (dialect) {
    case 'mysql':
    case 'mariadb': {
      const problems: string[] = [];
      if (dialectOptions.supportBigNumbers === false) {
        problems.push(
          `${dialect === 'mysql' ? 'mysql2' : 'mariadb'} returns BIGINT as a rounded Number with \`dialectOptions.supportBigNumbers: false\`: remove it (Sequelize sets it to true)`,
        );
      }
      if (dialect === 'mariadb' && dialectOptions.bigIntAsNumber === true) {
        problems.push(
          'mariadb returns BIGINT as a rounded Number with `dialectOptions.bigIntAsNumber: true`: remove it',
        );
      }
      if (typeof dialectOptions.typeCast === 'function' || dialectOptions.typeCast === false) {
        problems.push(
          '`dialectOptions.typeCast` replaces the conversion Sequelize and the driver make; snowkey cannot tell whether it keeps BIGINT exact: remove it',
        );
      }
      return problems;
    }
    case 'sqlite':
      return isBetterSqlite3Module(manager.lib)
        ? []
        : [
            'the sqlite3 driver reads BIGINT as a Number and rounds ids above 2^53, with no setting to prevent it: pass `dialectModule: betterSqlite3Module(Database)` (from @snowkey/sequelize, with better-sqlite3) to new Sequelize(...)',
          ];
    case 'postgres': {
      const parser = manager.getTypeParser?.call(manager, 20, 'text');
      if (typeof parser !== 'function') return [];
      const parsed: unknown = (parser as (text: string) => unknown)(PROBE);
      if (parsed === PROBE || parsed === BigInt(PROBE)) return [];
      return [
        `a pg type parser for INT8 (OID 20) turns ${PROBE} into ${typeof parsed === 'number' ? `the Number ${parsed}` : String(parsed)}: remove that \`types.setTypeParser(20, ...)\` or make it return a string or a bigint`,
      ];
    }
    default:
      return TESTED.includes(dialect)
        ? []
        : [`the "${dialect}" dialect is not one snowkey is tested on: use ${TESTED.join(', ')}`];
  }
}
