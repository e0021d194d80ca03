import { packageConfig } from '../../scripts/tsup.config';

// Local names minified to keep the tarball within its 400 KB budget; keepNames keeps every function's
// and class's `name`, which SnowkeyError's `name` and stack traces read.
export default packageConfig({
  entry: ['src/index.ts', 'src/adapter.ts', 'src/node.ts', 'src/otel.ts'],
  minifyIdentifiers: true,
  keepNames: true,
});
