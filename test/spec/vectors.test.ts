import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, test } from 'vitest';
import { specVectors } from '../../scripts/spec-vectors/build-vectors.js';

// packages/core/vectors.json is what core computes (so it cannot drift), and an independent
// decoder in another language, written from packages/core/SPEC.md (test/spec/decode.py), reads
// every vector the same way.

const vectorsFile = fileURLToPath(new URL('../../packages/core/vectors.json', import.meta.url));
const decoder = fileURLToPath(new URL('./decode.py', import.meta.url));
const shipped = JSON.parse(readFileSync(vectorsFile, 'utf8')) as ReturnType<typeof specVectors>;

test('GIVEN packages/core/vectors.json THEN it is exactly what core computes now (run `pnpm vectors` after changing core)', () => {
  expect(shipped).toEqual(JSON.parse(JSON.stringify(specVectors())));
});

const python = spawnSync('python3', ['--version'], { encoding: 'utf8' });
const missing = python.error || python.status !== 0 ? 'python3 is not on the PATH' : undefined;
if (missing && process.env.CI === 'true') {
  test('GIVEN CI=true THEN python3 must be installed for the spec decoder', () => {
    throw new Error(`${missing}: .ci/run installs Debian's python3`);
  });
}

describe.skipIf(missing !== undefined)(
  `the Python decoder of the spec${missing ? ` (skipped: ${missing})` : ''}`,
  () => {
    const scratch = mkdtempSync(join(tmpdir(), 'snowkey-spec-'));
    afterAll(() => rmSync(scratch, { recursive: true, force: true }));

    const run = (file: string) => spawnSync('python3', [decoder, file], { encoding: 'utf8' });

    test('GIVEN every vector THEN python3 decodes ids and time ranges, replays the generator traces, and encodes and decodes every public id, as core does', () => {
      const { status, stdout, stderr } = run(vectorsFile);
      expect(stderr).toBe('');
      expect(status).toBe(0);
      expect(JSON.parse(stdout)).toEqual({
        layouts: shipped.layouts.length,
        ids: shipped.ids.length,
        timeRanges: shipped.timeRanges.length,
        generatorSteps: shipped.generator.flatMap((t) => t.steps).length,
        generatorIds: shipped.generator.flatMap((t) => t.steps).filter((s) => 'id' in s).length,
        sipHash: shipped.publicIds.sipHash.length,
        publicIds: shipped.publicIds.valid.length,
        invalidPublicIds: shipped.publicIds.invalid.length,
      });
    });

    test.each([
      [
        'an id one above its vector',
        (v: ReturnType<typeof specVectors>) => {
          v.ids[1]!.id = String(BigInt(v.ids[1]!.id) + 1n);
        },
        /mismatch: id \d+ of \w+/,
      ],
      [
        'a public id whose typo check is off',
        (v: ReturnType<typeof specVectors>) => {
          const p = v.publicIds.valid[3]!;
          p.typoCheck = (p.typoCheck + 1) % 61;
        },
        /typo check digit/,
      ],
      [
        'a public id of another entity',
        (v: ReturnType<typeof specVectors>) => {
          v.publicIds.valid[0]!.entity = 'player';
        },
        /mismatch: public id/,
      ],
    ] as const)('GIVEN %s THEN the decoder reports the mismatch and fails', (_what, tamper, message) => {
      const copy = JSON.parse(JSON.stringify(shipped)) as ReturnType<typeof specVectors>;
      tamper(copy);
      const file = join(scratch, 'tampered.json');
      writeFileSync(file, JSON.stringify(copy));
      const { status, stderr } = run(file);
      expect(status).toBe(1);
      expect(stderr).toMatch(message);
    });
  },
);
