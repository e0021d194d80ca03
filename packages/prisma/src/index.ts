export { SnowflakeFieldError } from './errors.js';
export type { SnowkeyPrismaOptions } from './options.js';
export { snowkey } from './snowkey-extension.js';
