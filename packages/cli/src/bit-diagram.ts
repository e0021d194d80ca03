import type { Layout } from '@snowkey/core';

interface Cell {
  readonly label: string;
  readonly hi: number;
  readonly lo: number;
}

/**
 * Draws a layout's 64 bits as a box diagram, highest bit on the left, with each field's bit
 * range above it. Unused high bits are shown as `0`.
 */
export function renderBitDiagram(layout: Layout): string {
  const cells: Cell[] = [];
  const unused = 64 - layout.totalBits;
  if (unused > 0) cells.push({ label: unused === 1 ? '0' : `0 x${unused}`, hi: 63, lo: layout.totalBits });
  const fields = [
    { label: `timestamp ${layout.timestampBits}`, shift: layout.timestampShift, bits: layout.timestampBits },
    { label: `sequence ${layout.sequenceBits}`, shift: layout.sequenceShift, bits: layout.sequenceBits },
    ...layout.nodeFields.map((f) => ({ label: `${f.name} ${f.bits}`, shift: f.shift, bits: f.bits })),
  ].sort((a, b) => b.shift - a.shift);
  for (const f of fields) cells.push({ label: f.label, hi: f.shift + f.bits - 1, lo: f.shift });

  // The timestamp gets a little room in proportion to its width, so the picture reads like bits.
  const widths = cells.map((c) =>
    Math.max(c.label.length + 2, rangeText(c).length, Math.round((c.hi - c.lo + 1) * 0.6)),
  );
  let header = ' ';
  for (const [i, c] of cells.entries()) {
    const w = widths[i]!;
    const text = c.hi === c.lo ? String(c.hi) : `${c.hi}${' '.repeat(w - rangeText(c).length + 1)}${c.lo}`;
    header += `${text.padEnd(w)} `;
  }
  const line = (l: string, m: string, r: string) => `${l}${widths.map((w) => '─'.repeat(w)).join(m)}${r}`;
  const labels = `│${cells.map((c, i) => ` ${c.label}`.padEnd(widths[i]!)).join('│')}│`;
  return [header.trimEnd(), line('┌', '┬', '┐'), labels, line('└', '┴', '┘')].join('\n');
}

/** "63 62" style bit range text: the narrowest a cell may be to show it. */
function rangeText(c: Cell): string {
  return c.hi === c.lo ? String(c.hi) : `${c.hi} ${c.lo}`;
}
