// Run after tsup in a package's build (`tsup && node ../../scripts/esm-declarations.mjs`): tsup
// writes two identical sets of declarations, `.d.ts` for ESM and `.d.cts` for CJS, differing only
// in the extensions they import. This keeps the `.d.cts` set and makes each ESM entry's `.d.ts` a
// one-line `export *` of its CJS declarations: an ES module may import a CommonJS one, so every
// resolution mode (node10, node16 from ESM and CJS, bundler) still sees ESM types for the ESM
// build and CJS types for the CJS build, while the tarball carries one copy of each declaration.
// It runs after tsup rather than in tsup's onSuccess, which does not wait for the declarations.
//
// Not for a package whose declarations import a peer that ships its own ESM and CJS declarations
// and whose classes the user passes in (drizzle-orm's columns, kysely's `Kysely`): through the
// `.d.cts` an ESM user would meet the peer's CJS class types, which do not match their own ESM ones
// (protected and #private members). Interfaces still match, so core's use of @opentelemetry/api's
// `Meter` is fine. @snowkey/drizzle and @snowkey/kysely keep both sets for that;
// the ESM consumer apps (`pnpm test:consumers`) fail when a package gets this wrong.
import { readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const dist = join(process.cwd(), process.argv[2] ?? 'dist');
const files = readdirSync(dist);
const cjsDeclarations = files.filter((f) => f.endsWith('.d.cts'));
if (cjsDeclarations.length === 0) {
  console.error(`esm-declarations: no .d.cts in ${dist}; run tsup first`);
  process.exit(1);
}
for (const file of files) if (file.endsWith('.d.ts')) rmSync(join(dist, file));
// An entry has its JavaScript beside its declarations; shared declaration chunks have none.
for (const file of cjsDeclarations) {
  const base = file.slice(0, -'.d.cts'.length);
  if (files.includes(`${base}.js`) && files.includes(`${base}.cjs`)) {
    // `export *` carries no default export: an entry with one needs its own ESM declarations.
    if (/\bexport (default|=)|\bas default\b/.test(readFileSync(join(dist, file), 'utf8'))) {
      console.error(`esm-declarations: ${file} has a default export, which export * would drop`);
      process.exit(1);
    }
    writeFileSync(join(dist, `${base}.d.ts`), `export * from './${base}.cjs';\n`);
  }
}
