import { InvalidArgumentError } from '@snowkey/core';
import { type AdoptKeys, type AdoptPlan, applyAdopt, openDatabase, planAdopt } from '@snowkey/merge';
import { Command } from 'commander';
import { CommandFailed } from '../command-failed.js';
import { collect } from '../flag-values.js';
import type { CliIo } from '../io.js';
import { addLayoutFlags, type LayoutFlags, resolveLayout } from '../layout-flags.js';

interface AdoptFlags extends LayoutFlags {
  url: string;
  table?: string[];
  keys?: string;
  apply?: boolean;
  json?: boolean;
}

/** `snowkey adopt`: switch SERIAL / AUTO_INCREMENT tables to snowkey ids for new rows (dry run by default). */
export function adoptCommand(io: CliIo): Command {
  const command = new Command('adopt')
    .description(
      'switch tables from SERIAL / AUTO_INCREMENT keys to snowkey ids for new rows, existing rows untouched (a dry run unless --apply)',
    )
    .requiredOption('--url <url>', 'the database (postgres://, mysql://, mariadb://, file:)')
    .option(
      '--table <name>',
      'only this table (repeatable; default: every table with one integer key)',
      collect,
    )
    .option(
      '--keys <who>',
      "who sets new keys: app (the application; an INSERT without a key is refused) or sql (snowkey_next_id(), from 'snowkey sql install')",
      'app',
    )
    .option('--apply', 'run the statements (default: print them)')
    .option('--json', 'print the plan as JSON');
  addLayoutFlags(command, true);
  return command.action(async (flags: AdoptFlags) => {
    if (flags.keys !== 'app' && flags.keys !== 'sql')
      throw new InvalidArgumentError('--keys', 'app or sql', flags.keys);
    const options = {
      layout: resolveLayout(flags),
      tables: flags.table,
      keys: flags.keys as AdoptKeys,
      now: io.clock?.() ?? Date.now(),
    };
    const db = await openDatabase(flags.url);
    try {
      const plan = await planAdopt(db, options);
      if (flags.apply && plan.refused.length === 0) {
        await applyAdopt(db, {
          ...options,
          onStep: (s) => {
            if (!flags.json) io.stdout(`-- ${s.table}: ${s.what}\n${s.sql};\n`);
          },
        });
      }
      report(io, plan, flags);
      if (plan.refused.length > 0) throw new CommandFailed(1);
    } finally {
      await db.close();
    }
  });
}

function report(io: CliIo, plan: AdoptPlan, flags: AdoptFlags): void {
  if (flags.json) {
    io.stdout(
      `${JSON.stringify(
        { ...plan, applied: flags.apply === true && plan.refused.length === 0 },
        (_, v) => (typeof v === 'bigint' ? v.toString() : v),
        2,
      )}\n`,
    );
    return;
  }
  const lines: string[] = [];
  if (!flags.apply) for (const s of plan.steps) lines.push(`-- ${s.table}: ${s.what}`, `${s.sql};`);
  for (const t of plan.tables)
    lines.push(
      `${t.table}.${t.key}: largest key ${t.maxKey ?? 'none'}, below ${plan.firstId}, the first id the layout can issue`,
    );
  for (const r of plan.refused) lines.push(`refused ${r.table}: ${r.reason}`);
  for (const p of plan.pending) lines.push(`next: ${p}`);
  const verdict =
    plan.refused.length > 0
      ? 'nothing changed: leave the refused tables out (--table) or fix them'
      : plan.steps.length === 0
        ? 'nothing to do: every table takes snowkey ids'
        : flags.apply
          ? `done: ${plan.steps.length} statements`
          : `dry run: ${plan.steps.length} statements; run again with --apply`;
  io.stdout(`${[...lines, verdict].join('\n')}\n`);
}
