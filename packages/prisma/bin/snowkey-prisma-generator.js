#!/usr/bin/env node
// The `snowkey-prisma-generator` Prisma generator, which `prisma generate` starts. This file is part
// of the source tree, not of dist/, so a package manager can link it before anything is built.
import { existsSync } from 'node:fs';

const generator = new URL('../dist/generator.js', import.meta.url);
if (existsSync(generator)) {
  await import(generator.href);
} else {
  console.error('error: @snowkey/prisma is not built yet (dist/generator.js is missing): run `pnpm build`');
  process.exitCode = 1;
}
