// @snowkey/nest/terminus: the @nestjs/terminus indicator, apart so that the main entry never loads terminus.
export { type SnowkeyHealthDetails, SnowkeyHealthIndicator } from './snowkey-health-indicator.js';
