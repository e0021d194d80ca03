import { packageConfig } from '../../scripts/tsup.config';

export default packageConfig({ entry: ['src/index.ts', 'src/adapter.ts', 'src/node.ts', 'src/otel.ts'] });
