import { packageConfig } from '../../scripts/tsup.config';

export default packageConfig({
  entry: ['src/index.ts', 'src/cli.ts'],
  // src/cli.ts is the program bin/snowkey.js runs: it exports nothing, so it has no declarations.
  dts: { entry: ['src/index.ts'] },
});
