import { packageConfig } from '../../scripts/tsup.config';

export default packageConfig({
  entry: ['src/index.ts', 'src/pg-core.ts', 'src/mysql-core.ts', 'src/sqlite-core.ts'],
});
