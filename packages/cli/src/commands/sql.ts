import {
  DEFAULT_SQL_NODES_TABLE,
  InvalidArgumentError,
  type SqlGeneratorOptions,
  type SqlScript,
  sqlGeneratorScript,
  sqlGeneratorUninstallScript,
} from '@snowkey/core';
import { openDatabase } from '@snowkey/merge';
import { Command } from 'commander';
import { collect, integerFlag } from '../flag-values.js';
import type { CliIo } from '../io.js';
import { addLayoutFlags, type LayoutFlags, resolveLayout } from '../layout-flags.js';

interface SqlFlags extends LayoutFlags {
  dialect?: string;
  url?: string;
  nodes?: string;
  fill?: string[];
  leaseTable?: string;
  nodesTable?: string;
}

function addSqlFlags(command: Command): Command {
  command
    .option('--dialect <dialect>', 'postgres or mysql (MySQL/MariaDB); default: from --url')
    .option(
      '--url <url>',
      'apply it to this database (postgres://, mysql://, mariadb://) instead of printing it',
    )
    .option('--nodes <n>', 'node ids the database registers: transactions that issue ids at once (default 4)')
    .option(
      '--fill <table[.column]>',
      'MySQL: a table whose missing key a trigger fills (repeatable)',
      collect,
    )
    .option('--lease-table <name>', 'the application lease table (default snowkey_node_leases)')
    .option(
      '--nodes-table <name>',
      `the database's node ids and their state (default ${DEFAULT_SQL_NODES_TABLE})`,
    );
  return addLayoutFlags(command, true);
}

/** `snowkey sql install|uninstall`: the database-side generator `snowkey_next_id()`. */
export function sqlCommand(io: CliIo): Command {
  const run = async (flags: SqlFlags, build: (options: SqlGeneratorOptions) => SqlScript, done: string) => {
    const options = resolveOptions(flags);
    const script = build(options);
    if (flags.url === undefined) {
      io.stdout(script.text);
      return;
    }
    const db = await openDatabase(flags.url, { poolSize: 1 });
    try {
      // PostgreSQL's DDL is transactional: all of it or nothing. MySQL commits each DDL statement.
      if (options.dialect === 'postgres') {
        await db.transaction(async (tx) => {
          for (const sql of script.statements) await tx.execute(sql);
        });
      } else {
        for (const sql of script.statements) await db.execute(sql);
      }
      const nodes =
        done === 'installed'
          ? (
              await db.query<{ node_id: unknown }>(
                `SELECT node_id FROM ${options.nodesTable ?? DEFAULT_SQL_NODES_TABLE} ORDER BY slot`,
              )
            ).map((r) => Number(r.node_id))
          : [];
      io.stdout(
        done === 'installed'
          ? `installed snowkey_next_id() (layout ${options.layout.name}); the database holds node ids ${nodes.join(', ')}\n`
          : `uninstalled snowkey_next_id(); the database's node ids are free\n`,
      );
    } finally {
      await db.close();
    }
  };

  const install = addSqlFlags(new Command('install'))
    .description(
      'the SQL that creates snowkey_next_id(), ids of the layout from node ids the database registers',
    )
    .action((flags: SqlFlags) => run(flags, sqlGeneratorScript, 'installed'));
  const uninstall = addSqlFlags(new Command('uninstall'))
    .description("the SQL that drops snowkey_next_id() and frees the database's node ids")
    .action((flags: SqlFlags) => run(flags, sqlGeneratorUninstallScript, 'uninstalled'));
  return new Command('sql')
    .description('ids issued by the database itself: snowkey_next_id() for SQL, triggers and other languages')
    .addCommand(install)
    .addCommand(uninstall);
}

function resolveOptions(flags: SqlFlags): SqlGeneratorOptions {
  const fromUrl =
    flags.url === undefined
      ? undefined
      : /^postgres(ql)?:\/\//.test(flags.url)
        ? 'postgres'
        : /^(mysql|mariadb):\/\//.test(flags.url)
          ? 'mysql'
          : undefined;
  if (flags.url !== undefined && fromUrl === undefined) {
    throw new InvalidArgumentError('--url', 'a postgres://, mysql:// or mariadb:// URL', flags.url);
  }
  const dialect = flags.dialect ?? fromUrl;
  if (dialect !== 'postgres' && dialect !== 'mysql') {
    throw new InvalidArgumentError('--dialect', 'postgres or mysql (or a --url to take it from)', dialect);
  }
  if (fromUrl !== undefined && fromUrl !== dialect) {
    throw new InvalidArgumentError('--dialect', `${fromUrl}, the dialect of --url`, dialect);
  }
  return {
    layout: resolveLayout(flags),
    dialect,
    nodes: flags.nodes === undefined ? undefined : integerFlag('--nodes', flags.nodes, 'a positive integer'),
    fill: flags.fill,
    leaseTable: flags.leaseTable,
    nodesTable: flags.nodesTable,
  };
}
