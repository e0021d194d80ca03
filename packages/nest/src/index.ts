export { IdJsonInterceptor, ParseIdPipe } from '@snowkey/http/nest';
export { IdParam, InjectIdGenerator } from './inject-id-generator.js';
export type {
  LeaseTaker,
  SnowkeyGeneratorOptions,
  SnowkeyLeaseOptions,
  SnowkeyModuleAsyncOptions,
  SnowkeyModuleOptions,
  SnowkeyOwnGeneratorOptions,
  SnowkeyRegistration,
  SnowkeySegmentOptions,
} from './module-options.js';
export { SnowkeyModule } from './snowkey-module.js';
export { SnowkeyService } from './snowkey-service.js';
export { SNOWKEY_GENERATOR } from './tokens.js';
