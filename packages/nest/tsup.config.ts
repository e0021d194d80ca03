import { packageConfig } from '../../scripts/tsup.config';

export default packageConfig({
  entry: ['src/index.ts', 'src/terminus.ts'],
  // Nest and terminus are the application's own (peer dependencies), never bundled.
  external: ['@nestjs/common', '@nestjs/core', '@nestjs/terminus', 'rxjs'],
});
