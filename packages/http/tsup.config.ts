import { packageConfig } from '../../scripts/tsup.config';

export default packageConfig({
  entry: ['src/index.ts', 'src/express.ts', 'src/fastify.ts', 'src/nest.ts'],
  // The frameworks are the application's own (optional peer dependencies), never bundled.
  external: ['@nestjs/common', 'rxjs'],
});
