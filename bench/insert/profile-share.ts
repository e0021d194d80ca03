// Where the CPU time of a profiled run went: self time per owner (our packages, each npm package,
// Node itself, the garbage collector), from a V8 CPU profile such as profile-adapter.ts writes.

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string };
}
export interface CpuProfile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

/** The owner of a function: a workspace package of ours, an npm package, or Node's own code. */
export function ownerOf(node: ProfileNode): string {
  const { url, functionName } = node.callFrame;
  if (!url)
    return functionName === '(program)' || functionName === '(garbage collector)' || functionName === '(idle)'
      ? functionName
      : '(native)';
  const fromNpm = url.match(/node_modules\/(?:\.pnpm\/[^/]+\/node_modules\/)?((?:@[^/]+\/)?[^/]+)/);
  if (fromNpm) return fromNpm[1]!;
  const ours = url.match(/\/packages\/([^/]+)\/src\//);
  if (ours) return `@snowkey/${ours[1]} (ours)`;
  if (url.startsWith('node:')) return '(node)';
  return '(bench and other)';
}

/** A Markdown table of self time per owner, largest first; idle time is left out. */
export function shareTable(profile: CpuProfile): string {
  const owners = new Map(profile.nodes.map((n) => [n.id, ownerOf(n)]));
  const micros = new Map<string, number>();
  profile.samples.forEach((id, i) => {
    const owner = owners.get(id) ?? '(unknown)';
    micros.set(owner, (micros.get(owner) ?? 0) + (profile.timeDeltas[i] ?? 0));
  });
  micros.delete('(idle)');
  const busy = [...micros.values()].reduce((sum, us) => sum + us, 0);
  const lines = ['| owner | CPU ms | share of busy time |', '| --- | ---: | ---: |'];
  for (const [owner, us] of [...micros].sort((a, b) => b[1] - a[1])) {
    lines.push(`| ${owner} | ${(us / 1000).toFixed(0)} | ${((100 * us) / busy).toFixed(1)}% |`);
  }
  return lines.join('\n');
}
