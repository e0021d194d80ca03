import { packageConfig } from '../../scripts/tsup.config';

export default packageConfig();
