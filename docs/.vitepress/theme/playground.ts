import { decode, defineLayout, type Layout, layoutEndsAt, layouts } from '@snowkey/core';

// What the id playground shows, computed by @snowkey/core itself: the page only lays it out, so
// every value and every message is the library's.

/** One input line: its decoded fields, or the library's error message. */
export type DecodedRow =
  | { readonly input: string; readonly ok: true; readonly fields: ReadonlyArray<readonly [string, string]> }
  | { readonly input: string; readonly ok: false; readonly error: string };

/** A field of the bit diagram, high bits first. */
export interface BitField {
  readonly name: string;
  readonly bits: number;
  readonly high: number;
  readonly low: number;
  readonly kind: 'sign' | 'timestamp' | 'node' | 'sequence';
}

/** What a layout allows. */
export interface LayoutFacts {
  readonly diagram: readonly BitField[];
  readonly totalBits: number;
  readonly endsAt: string;
  readonly idsPerMs: string;
  readonly nodes: string;
}

export const presetNames = Object.keys(layouts) as Array<keyof typeof layouts>;

/** The text of an error the library threw, as its message says it. */
export function message(err: unknown): string {
  return err instanceof Error ? `${err.name}: ${err.message}` : String(err);
}

/** Each id of `text` (split on white space and commas) decoded with `layout`. */
export function decodeAll(text: string, layout: Layout): DecodedRow[] {
  return text
    .split(/[\s,]+/)
    .filter((s) => s.length > 0)
    .map((input): DecodedRow => {
      try {
        const d = decode(input, { layout });
        const fields: Array<readonly [string, string]> = [
          ['date', d.date.toISOString()],
          ['timestamp', String(d.timestamp)],
          ...layout.nodeFields.map((f) => [f.name, String(d[f.name])] as const),
          ['sequence', String(d.sequence)],
        ];
        return { input, ok: true, fields };
      } catch (err) {
        return { input, ok: false, error: message(err) };
      }
    });
}

/** A custom layout from the builder's fields: `nodes` is `name=bits` pairs, highest first. */
export function buildLayout(spec: {
  timestampBits: number;
  nodes: string;
  sequenceBits: number;
  timeUnitMs: number;
  epoch: string;
  order: 'node-sequence' | 'sequence-node';
  unsigned: boolean;
}): Layout {
  const nodeBits = spec.nodes
    .split(/[\s,]+/)
    .filter((s) => s.length > 0)
    .map((pair) => {
      const [name = '', bits = ''] = pair.split('=');
      return [name, Number(bits)] as const;
    });
  const epoch = /^\d+$/.test(spec.epoch.trim()) ? Number(spec.epoch) : Date.parse(spec.epoch);
  return defineLayout({
    name: 'custom',
    timestampBits: spec.timestampBits,
    nodeBits,
    sequenceBits: spec.sequenceBits,
    timeUnitMs: spec.timeUnitMs,
    epoch,
    order: spec.order,
    unsigned: spec.unsigned,
  });
}

/** The bit diagram, end date, ids per millisecond and node count of a layout. */
export function layoutFacts(layout: Layout): LayoutFacts {
  const diagram: BitField[] = [];
  let high = 63;
  const push = (name: string, bits: number, kind: BitField['kind']) => {
    if (bits <= 0) return;
    diagram.push({ name, bits, high, low: high - bits + 1, kind });
    high -= bits;
  };
  push(layout.unsigned ? '' : 'sign', 64 - layout.totalBits, 'sign');
  push('timestamp', layout.timestampBits, 'timestamp');
  const nodes = () => {
    for (const f of layout.nodeFields) push(f.name, f.bits, 'node');
  };
  if (layout.order === 'sequence-node') {
    push('sequence', layout.sequenceBits, 'sequence');
    nodes();
  } else {
    nodes();
    push('sequence', layout.sequenceBits, 'sequence');
  }
  const perUnit = 2 ** layout.sequenceBits;
  const perMs = perUnit / layout.timeUnitMs;
  return {
    diagram,
    totalBits: layout.totalBits,
    endsAt: new Date(layoutEndsAt(layout)).toISOString(),
    idsPerMs: Number.isInteger(perMs) ? perMs.toLocaleString('en-US') : perMs.toFixed(1),
    nodes: (2 ** layout.nodeBitsTotal).toLocaleString('en-US'),
  };
}
