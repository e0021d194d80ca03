import { Inject, Injectable } from '@nestjs/common';
import type { HealthIndicatorResult } from '@nestjs/terminus';
import { HealthIndicatorService } from '@nestjs/terminus';
import { InvalidArgumentError, type SnowkeyHealth } from '@snowkey/core';
import { type HealthProbe, healthStatus } from '@snowkey/http';
import { SnowkeyService } from './snowkey-service.js';

/** The report a terminus result carries: `snowkeyHealth()` without its `status` (terminus's own key). */
export type SnowkeyHealthDetails = Omit<SnowkeyHealth, 'status'>;

/**
 * A `@nestjs/terminus` health indicator for the module's generator: `up` when the probe passes,
 * `down` (so `HealthCheckService` answers 503) when it fails, `degraded` while ids still flow but
 * renewals or segment fetches are failing (terminus 12.1+; `up` before). The result carries the
 * `snowkeyHealth()` report: lease, time to expiry, fence, segments, problems.
 *
 * @example
 * import { HealthCheck, HealthCheckService, TerminusModule } from '@nestjs/terminus';
 *
 * @Controller('health')
 * class HealthController {
 *   constructor(
 *     @Inject(HealthCheckService) private readonly health: HealthCheckService,
 *     @Inject(SnowkeyHealthIndicator) private readonly snowkey: SnowkeyHealthIndicator,
 *   ) {}
 *   @Get('ready') @HealthCheck() ready() { return this.health.check([() => this.snowkey.isHealthy('snowkey')]); }
 *   @Get('live') @HealthCheck() live() { return this.health.check([() => this.snowkey.isHealthy('snowkey', 'live')]); }
 * }
 *
 * @Module({ imports: [TerminusModule], controllers: [HealthController], providers: [SnowkeyHealthIndicator] })
 * class HealthModule {}
 */
@Injectable()
export class SnowkeyHealthIndicator {
  constructor(
    @Inject(HealthIndicatorService) private readonly indicators: HealthIndicatorService,
    @Inject(SnowkeyService) private readonly snowkey: SnowkeyService,
  ) {}

  /**
   * The generator's health under `key` for a `ready` (default) or `live` probe.
   *
   * @example
   * await health.check([() => indicator.isHealthy('ids', 'live')]);
   */
  isHealthy<const Key extends string = 'snowkey'>(
    key: Key = 'snowkey' as Key,
    probe: HealthProbe = 'ready',
  ): HealthIndicatorResult<Key, 'up' | 'degraded' | 'down', SnowkeyHealthDetails> {
    if (typeof key !== 'string' || key.length === 0) {
      throw new InvalidArgumentError('key', 'a non-empty string such as "snowkey"', key);
    }
    if (probe !== 'ready' && probe !== 'live') {
      throw new InvalidArgumentError('probe', "'ready' or 'live'", probe);
    }
    const { status, ...details } = this.snowkey.health();
    const session = this.indicators.check(key);
    if (healthStatus({ status, ...details }, probe) !== 200) return session.down(details);
    const degraded = (session as { degraded?: unknown }).degraded;
    return status === 'warn' && typeof degraded === 'function'
      ? session.degraded(details)
      : session.up(details);
  }
}
