import { InvalidArgumentError } from '@snowkey/core';
import { type ConflictPolicy, type MergeDatabase, openDatabase } from '@snowkey/merge';

/** `--source S2=URL` (or `2=URL`, which is labelled `S2`). */
export function parseSource(raw: string): { label: string; url: string } {
  const m = /^([A-Za-z0-9_-]{1,32})=(.+)$/.exec(raw);
  if (!m) throw new InvalidArgumentError('--source', 'LABEL=URL, e.g. S2=postgres://host/game_s2', raw);
  const label = /^\d+$/.test(m[1]!) ? `S${m[1]}` : m[1]!;
  return { label, url: m[2]! };
}

/** `--on-conflict players.name=rename` (several columns: `ranks.guild_id+name=skip`). */
export function parsePolicies(raw: readonly string[]): Record<string, ConflictPolicy> {
  const out: Record<string, ConflictPolicy> = {};
  for (const r of raw) {
    const m = /^([^=]+\.[^=]+)=(rename|skip|fail)$/.exec(r);
    if (!m)
      throw new InvalidArgumentError(
        '--on-conflict',
        'TABLE.COLUMN=rename|skip|fail, e.g. players.name=rename',
        r,
      );
    out[m[1]!] = m[2] as ConflictPolicy;
  }
  return out;
}

/** Opens every URL (sources read-only), closing those already open when one fails. */
export async function openAll(
  urls: readonly { readonly url: string; readonly readonly: boolean }[],
): Promise<MergeDatabase[]> {
  const out: MergeDatabase[] = [];
  try {
    for (const { url, readonly } of urls) out.push(await openDatabase(url, { readonly }));
    return out;
  } catch (err) {
    await closeAll(out);
    throw err;
  }
}

export async function closeAll(dbs: readonly MergeDatabase[]): Promise<void> {
  await Promise.allSettled(dbs.map((d) => d.close()));
}
