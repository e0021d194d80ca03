export { SnowflakeFieldError } from './errors.js';
export type { SnowkeyPrismaOptions } from './options.js';
export type { PrismaDataModel } from './prisma-data-model.js';
export { type PrismaRawQueryable, prismaSqlClient } from './prisma-sql-client.js';
export { snowkeyClient } from './snowkey-client.js';
export { snowkey } from './snowkey-extension.js';
