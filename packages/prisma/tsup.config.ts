import { packageConfig } from '../../scripts/tsup.config';

export default packageConfig({ entry: ['src/index.ts', 'src/generator.ts'] });
