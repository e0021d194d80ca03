import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { specVectors } from './build-vectors.js';

// `pnpm vectors`: writes core's test vectors to packages/core/vectors.json.
const target = fileURLToPath(new URL('../../packages/core/vectors.json', import.meta.url));
writeFileSync(target, `${JSON.stringify(specVectors(), null, 2)}\n`);
console.log(`wrote ${target}`);
