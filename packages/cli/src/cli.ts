#!/usr/bin/env node
import { run } from './run.js';

// exitCode rather than process.exit(): pending stdout writes to a pipe get flushed first.
run(process.argv.slice(2)).then((code) => {
  process.exitCode = code;
});
