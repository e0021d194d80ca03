import { InvalidArgumentError } from './errors.js';
import type { Layout } from './layout.js';

/** The node fields of a generator, validated against the layout and packed. */
export interface PackedNode {
  readonly node: Readonly<Record<string, number>>;
  /** All node bits as one number. */
  readonly nodeId: number;
  /** The node bits in place inside an id. */
  readonly nodePart: bigint;
}

/**
 * Validates node fields given by name (`{ workerId: 3 }`) or packed (`nodeId`), never both,
 * and packs them. Every field of the layout must be given: a silent default of 0 would let
 * two processes share a node id.
 */
export function packNodeFields(
  layout: Layout,
  byName: Readonly<Record<string, unknown>>,
  packed: unknown,
): PackedNode {
  const fields = layout.nodeFields;
  const node: Record<string, number> = {};
  let nodePart = 0n;
  if (packed !== undefined) {
    const max = 2 ** layout.nodeBitsTotal - 1;
    if (typeof packed !== 'number' || !Number.isInteger(packed) || packed < 0 || packed > max) {
      throw new InvalidArgumentError('nodeId', `an integer in 0..${max}`, packed);
    }
    const given = fields.find((f) => own(byName, f.name) !== undefined);
    if (given) {
      throw new InvalidArgumentError(
        given.name,
        'absent when nodeId (or a lease) is given',
        own(byName, given.name),
      );
    }
    let rest = packed;
    for (let i = fields.length - 1; i >= 0; i--) {
      const f = fields[i]!;
      node[f.name] = rest % 2 ** f.bits;
      rest = Math.floor(rest / 2 ** f.bits);
    }
  } else {
    for (const f of fields) {
      const v = own(byName, f.name);
      if (typeof v !== 'number' || !Number.isInteger(v) || v < 0 || v > f.max) {
        throw new InvalidArgumentError(f.name, `an integer in 0..${f.max}`, v);
      }
      node[f.name] = v;
    }
  }
  let nodeId = 0;
  for (const f of fields) {
    const v = node[f.name]!;
    nodeId = nodeId * 2 ** f.bits + v;
    nodePart |= BigInt(v) << BigInt(f.shift);
  }
  return { node: Object.freeze(node), nodeId, nodePart };
}

/** An own property only: an inherited one (a layout forged around defineLayout) is absent. */
function own(record: Readonly<Record<string, unknown>>, key: string): unknown {
  return Object.hasOwn(record, key) ? record[key] : undefined;
}
