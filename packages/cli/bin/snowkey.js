#!/usr/bin/env node
// The `snowkey` command. This file is part of the source tree, not of dist/, so a package manager
// can link it when the workspace is installed, before anything is built; it runs the built CLI.
import { existsSync } from 'node:fs';

const cli = new URL('../dist/cli.js', import.meta.url);
if (existsSync(cli)) {
  await import(cli.href);
} else {
  console.error(
    'error: @snowkey/cli is not built yet (dist/cli.js is missing): run `pnpm build` (`npm test` builds it)',
  );
  process.exitCode = 1;
}
