// A semver range matcher for the shapes adapters declare for their peers: `^1.2.3`,
// `>=0.28.0 <0.30.0`, and `||` between alternatives. Prereleases count by their place in semver's
// order (node-semver's `includePrerelease`): 7.1.0-dev.2 is inside ^7.0.0; 8.0.0-beta.1 and
// 7.0.0-rc.1 are not.

/** A version's identifiers in order; a release ends with `~`, which sorts after any prerelease identifier. */
function identifiers(text: string): string[] | undefined {
  const m = /^(\d+)\.(\d+)\.(\d+)(?:-([\w.-]+))?(\+[\w.-]*)?$/.exec(text);
  return m ? [m[1]!, m[2]!, m[3]!, ...(m[4]?.split('.') ?? ['~'])] : undefined;
}

function compare(a: string[], b: string[]): number {
  for (let i = 0; i < Math.max(a.length, b.length); i++) {
    const [x, y] = [a[i], b[i]];
    if (x === undefined || y === undefined) return x === undefined ? -1 : 1;
    const [xn, yn] = [/^\d+$/.test(x), /^\d+$/.test(y)];
    // Numeric identifiers compare as numbers and sort before alphanumeric ones.
    if (xn !== yn) return xn ? -1 : 1;
    if (xn ? +x !== +y : x !== y) return (xn ? +x < +y : x < y) ? -1 : 1;
  }
  return 0;
}

/**
 * Whether `version` satisfies the semver `range` (`^0.3.20 || ^1.0.0`, `>=0.28.0 <0.30.0`). A version
 * that is not semver satisfies nothing, and neither does a part of the range of another shape (each
 * adapter's test proves its range admits the installed version).
 */
export function satisfiesVersionRange(version: string, range: string): boolean {
  const v = identifiers(version);
  return range.split('||').some((alternative) =>
    alternative
      .trim()
      .split(/\s+/)
      .every((part) => {
        const [, operator, text = ''] = /^(\^|>=|<)?(.*)$/.exec(part)!;
        const bound = identifiers(text);
        if (!v || !operator || !bound) return false;
        const c = compare(v, bound);
        if (operator === '<') return c < 0;
        if (c < 0 || operator === '>=') return c >= 0;
        // ^1.2.3 stops below 2.0.0-0 (every 2.0.0 prerelease); ^0.3.20 below 0.4.0-0, ^0.0.3 below 0.0.4-0.
        const [major, minor, patch] = bound.map(Number) as [number, number, number];
        const upper = major ? [major + 1, 0, 0] : minor ? [0, minor + 1, 0] : [0, 0, patch + 1];
        return compare(v, [...upper.map(String), '0']) < 0;
      }),
  );
}
