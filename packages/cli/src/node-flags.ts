import { InvalidArgumentError, type Layout, layouts, nodeIdFromEnv } from '@snowkey/core';
import type { Command } from 'commander';
import { integerFlag, kebabCase } from './flag-values.js';

/** Every node field name of the presets (workerId, datacenterId, serverId, ...): each becomes a flag. */
const fieldNames = [...new Set(Object.values(layouts).flatMap((l) => l.nodeFields.map((f) => f.name)))];

/** Adds `--node-id <n>` and one flag per preset node field (`--worker-id`, `--datacenter-id`, ...). */
export function addNodeFlags(command: Command): Command {
  command.option('--node-id <n>', 'all node bits packed into one number (the form leases hand out)');
  for (const name of fieldNames) command.option(`--${kebabCase(name)} <n>`, `node field ${name}`);
  return command;
}

/**
 * The node options for `new Snowflake`: from the flags, else from the environment
 * (`SNOWKEY_NODE_ID` or `SNOWKEY_<FIELD>`). A node id is never defaulted: two machines that both
 * fell back to 0 would issue the same ids.
 */
export function nodeOptions(
  layout: Layout,
  flags: Readonly<Record<string, unknown>>,
  env: Readonly<Record<string, string | undefined>>,
): Record<string, number> {
  const own = new Set(layout.nodeFields.map((f) => f.name));
  for (const name of fieldNames) {
    if (flags[name] !== undefined && !own.has(name)) {
      const known = layout.nodeFields.map((f) => `--${kebabCase(f.name)}`);
      throw new InvalidArgumentError(
        `--${kebabCase(name)}`,
        `a node field of layout "${layout.name}" (${[...known, '--node-id'].join(', ')})`,
        flags[name],
      );
    }
  }
  const given = layout.nodeFields.filter((f) => flags[f.name] !== undefined);
  if (flags.nodeId !== undefined) {
    if (given.length > 0) {
      throw new InvalidArgumentError(
        `--${kebabCase(given[0]!.name)}`,
        'absent when --node-id is given',
        flags[given[0]!.name],
      );
    }
    return { nodeId: integerFlag('--node-id', String(flags.nodeId)) };
  }
  if (given.length === 0 && layout.nodeFields.length > 0) {
    const vars = Object.keys(env).filter((k) => k.startsWith('SNOWKEY_'));
    if (vars.length > 0) return nodeIdFromEnv({ layout, env });
    const first = layout.nodeFields[0]!;
    throw new InvalidArgumentError(
      `--${kebabCase(first.name)}`,
      `an integer in 0..${first.max} (or pass --node-id, or set SNOWKEY_NODE_ID or SNOWKEY_${kebabCase(first.name).replace(/-/g, '_').toUpperCase()})`,
      undefined,
    );
  }
  const out: Record<string, number> = {};
  for (const f of layout.nodeFields) {
    const raw = flags[f.name];
    // A missing field is passed on as absent so core names it with its range.
    if (raw !== undefined)
      out[f.name] = integerFlag(`--${kebabCase(f.name)}`, String(raw), `an integer in 0..${f.max}`);
  }
  return out;
}
