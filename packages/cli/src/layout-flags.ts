import {
  defineLayout,
  InvalidArgumentError,
  type Layout,
  type LayoutSpec,
  layoutSpec,
  layouts,
  withEpoch,
} from '@snowkey/core';
import type { Command } from 'commander';
import { collect, epochFlag, integerFlag } from './flag-values.js';

/** The layout flags as commander hands them over: raw strings, parsed by {@link resolveLayout}. */
export interface LayoutFlags {
  layout?: string;
  timestampBits?: string;
  node?: string[];
  sequenceBits?: string;
  timeUnitMs?: string;
  epoch?: string;
  order?: string;
  unsigned?: boolean;
}

/** `gameServer`, `game-server`, `GAMESERVER` and `game_server` all name the same preset. */
const normalize = (name: string) => name.toLowerCase().replace(/[-_]/g, '');
const presetNames = Object.keys(layouts) as Array<keyof typeof layouts>;

/** Adds the flags that pick or build a layout; `withName` adds `--layout <name>`. */
export function addLayoutFlags(command: Command, withName: boolean): Command {
  if (withName) {
    command.option('--layout <name>', `a preset layout: ${presetNames.join(', ')} (default snowkey)`);
  }
  return command
    .option('--timestamp-bits <bits>', 'custom layout: width of the timestamp field')
    .option('--node <name=bits>', 'custom layout: a node field, highest first (repeatable)', collect)
    .option('--sequence-bits <bits>', 'custom layout: width of the sequence field')
    .option('--time-unit-ms <ms>', 'custom layout: ms per timestamp tick (default 1)')
    .option('--epoch <ISO|ms>', 'the epoch: an ISO date or ms since 1970 (overrides a preset)')
    .option('--order <order>', 'custom layout: node-sequence (default) or sequence-node (Sonyflake)')
    .option('--unsigned', 'custom layout: allow 64 bits (ids above 2^63-1, BIGINT UNSIGNED)');
}

/** Looks a preset up by name; an unknown name lists the known ones. */
export function presetLayout(name: string): Layout {
  const key = presetNames.find((k) => normalize(k) === normalize(name));
  if (!key) throw new InvalidArgumentError('--layout', `one of ${presetNames.join(', ')}`, name);
  return layouts[key];
}

/**
 * Turns the flags into a validated layout: a preset, a preset with some fields changed, or a
 * custom layout from `--timestamp-bits`, `--node name=bits` and `--sequence-bits`. Widths that do
 * not fit come back from core's `defineLayout` as an InvalidLayoutError naming every field.
 */
export function resolveLayout(flags: LayoutFlags): Layout {
  const base = flags.layout === undefined ? undefined : presetLayout(flags.layout);
  const custom =
    flags.timestampBits !== undefined ||
    flags.node !== undefined ||
    flags.sequenceBits !== undefined ||
    flags.timeUnitMs !== undefined ||
    flags.order !== undefined ||
    flags.unsigned === true;
  const epoch = flags.epoch === undefined ? undefined : epochFlag(flags.epoch);
  if (!custom) {
    const layout = base ?? layouts.default;
    return epoch === undefined ? layout : withEpoch(layout, epoch);
  }
  const from: Partial<LayoutSpec> = base ? layoutSpec(base) : {};
  const width = (flag: string, raw: string | undefined, fallback: number | undefined): number => {
    if (raw !== undefined) return integerFlag(flag, raw, 'a positive integer width');
    if (fallback !== undefined) return fallback;
    throw new InvalidArgumentError(flag, 'given for a custom layout (or name a preset layout)', raw);
  };
  return defineLayout({
    name: base ? `${base.name} (modified)` : 'custom',
    timestampBits: width('--timestamp-bits', flags.timestampBits, from.timestampBits),
    nodeBits: flags.node ? flags.node.map(nodeField) : (from.nodeBits ?? []),
    sequenceBits: width('--sequence-bits', flags.sequenceBits, from.sequenceBits),
    timeUnitMs:
      flags.timeUnitMs === undefined
        ? from.timeUnitMs
        : integerFlag('--time-unit-ms', flags.timeUnitMs, 'a positive integer number of ms'),
    epoch: epoch ?? from.epoch,
    order: (flags.order ?? from.order) as LayoutSpec['order'],
    unsigned: flags.unsigned === true || from.unsigned === true,
  });
}

function nodeField(raw: string): readonly [string, number] {
  const m = /^([^=]+)=(\d+)$/.exec(raw);
  if (!m) throw new InvalidArgumentError('--node', 'name=bits, e.g. workerId=10', raw);
  return [m[1]!, integerFlag('--node', m[2]!, 'name=bits, e.g. workerId=10')];
}
