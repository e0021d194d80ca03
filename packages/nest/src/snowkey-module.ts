import { type DynamicModule, Module, type Provider } from '@nestjs/common';
import { APP_INTERCEPTOR } from '@nestjs/core';
import { InvalidArgumentError } from '@snowkey/core';
import { IdJsonInterceptor } from '@snowkey/http/nest';
import { healthController } from './health-controller.js';
import type {
  SnowkeyGeneratorOptions,
  SnowkeyModuleAsyncOptions,
  SnowkeyModuleOptions,
  SnowkeyRegistration,
} from './module-options.js';
import { assertNestVersions } from './peer-version.js';
import { SnowkeyService } from './snowkey-service.js';
import { SNOWKEY_GENERATOR, SNOWKEY_GENERATOR_OPTIONS } from './tokens.js';

/**
 * Snowflake ids for a Nest application: a generator on a lease taken before it listens and
 * released at shutdown (or a segment allocator), bigints as strings in responses, health routes.
 *
 * @example
 * @Module({
 *   imports: [
 *     SnowkeyModule.forRootAsync({
 *       inject: [DataSource],
 *       useFactory: (dataSource: DataSource) => ({ lease: { client: typeormSqlClient(dataSource) } }),
 *       healthPath: 'healthz',
 *     }),
 *   ],
 * })
 * class AppModule {}
 */
@Module({})
// biome-ignore lint/complexity/noStaticOnlyClass: a Nest module is a class; forRoot is its convention.
export class SnowkeyModule {
  /** The module with options known up front. */
  static forRoot(options: SnowkeyModuleOptions): DynamicModule {
    assertNestVersions();
    if (options === null || typeof options !== 'object') {
      throw new InvalidArgumentError('options', 'SnowkeyModule.forRoot options (an object)', options);
    }
    const { isGlobal, serializeIds, healthPath, ...generatorOptions } = options;
    return dynamicModule(
      { isGlobal, serializeIds, healthPath },
      { provide: SNOWKEY_GENERATOR_OPTIONS, useValue: generatorOptions as SnowkeyGeneratorOptions },
      [],
    );
  }

  /** The module with options from a factory that injects other providers. */
  static forRootAsync(options: SnowkeyModuleAsyncOptions): DynamicModule {
    assertNestVersions();
    if (options === null || typeof options !== 'object' || typeof options.useFactory !== 'function') {
      throw new InvalidArgumentError(
        'options',
        'SnowkeyModule.forRootAsync options with a useFactory function',
        options === null || typeof options !== 'object' ? options : options.useFactory,
      );
    }
    const { isGlobal, serializeIds, healthPath, imports = [], inject = [], useFactory } = options;
    return dynamicModule(
      { isGlobal, serializeIds, healthPath },
      { provide: SNOWKEY_GENERATOR_OPTIONS, useFactory, inject },
      imports,
    );
  }
}

function dynamicModule(
  registration: SnowkeyRegistration,
  optionsProvider: Provider,
  imports: NonNullable<DynamicModule['imports']>,
): DynamicModule {
  const { isGlobal = true, serializeIds = true, healthPath } = registration;
  if (typeof isGlobal !== 'boolean') throw new InvalidArgumentError('isGlobal', 'a boolean', isGlobal);
  if (typeof serializeIds !== 'boolean') {
    throw new InvalidArgumentError('serializeIds', 'a boolean', serializeIds);
  }
  if (healthPath !== undefined && (typeof healthPath !== 'string' || healthPath.length === 0)) {
    throw new InvalidArgumentError('healthPath', "a route path such as 'healthz', or undefined", healthPath);
  }
  return {
    module: SnowkeyModule,
    global: isGlobal,
    imports,
    providers: [
      optionsProvider,
      {
        provide: SnowkeyService,
        useFactory: (options: SnowkeyGeneratorOptions) => SnowkeyService.start(options),
        inject: [SNOWKEY_GENERATOR_OPTIONS],
      },
      {
        provide: SNOWKEY_GENERATOR,
        useFactory: (s: SnowkeyService) => s.generator,
        inject: [SnowkeyService],
      },
      ...(serializeIds ? [{ provide: APP_INTERCEPTOR, useClass: IdJsonInterceptor }] : []),
    ],
    controllers: healthPath === undefined ? [] : [healthController(healthPath)],
    exports: [SnowkeyService, SNOWKEY_GENERATOR],
  };
}
