import { Inject, Injectable } from '@nestjs/common';
import type { HealthIndicatorResult } from '@nestjs/terminus';
import { HealthIndicatorService } from '@nestjs/terminus';
import { InvalidArgumentError, type SnowkeyHealth } from '@snowkey/core';
import { type HealthProbe, healthStatus } from '@snowkey/http';
import { SnowkeyService } from './snowkey-service.js';

/** The report a terminus result carries: `snowkeyHealth()` without its `status` (terminus's own key). */
export type SnowkeyHealthDetails = Omit<SnowkeyHealth, 'status'>;

/**
 * A `@nestjs/terminus` indicator: `up` when the probe passes, `down` (a 503) when it fails,
 * `degraded` while ids flow but renewals or fetches fail (terminus 12.1+), with the health report.
 *
 * @example
 * await health.check([() => indicator.isHealthy('snowkey'), () => indicator.isHealthy('ids', 'live')]);
 */
@Injectable()
export class SnowkeyHealthIndicator {
  constructor(
    @Inject(HealthIndicatorService) private readonly indicators: HealthIndicatorService,
    @Inject(SnowkeyService) private readonly snowkey: SnowkeyService,
  ) {}

  /** The generator's health under `key` for a `ready` (default) or `live` probe. */
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
