import type { SnowkeyHealth } from '@snowkey/core';

/** `ready` (ids can be issued now) or `live` (restart me: the lease was lost). */
export type HealthProbe = 'ready' | 'live';

/**
 * 200 when the probe passes for a `snowkeyHealth()` report (a `warn` passes both), 503 when it fails.
 *
 * @example
 * const report = snowkeyHealth({ generator: gen, lease });
 * expressResponse.status(healthStatus(report, 'ready')).json(report); // Express: 200, or 503 when not ready
 */
export function healthStatus(report: SnowkeyHealth, probe: HealthProbe = 'ready'): 200 | 503 {
  return (probe === 'live' ? report.live : report.ready) ? 200 : 503;
}

/**
 * A `Response` for a probe: the report as JSON with {@link healthStatus}'s status, never cached.
 *
 * @example
 * // app/healthz/ready/route.ts (Next.js); in Hono: app.get('/healthz/ready', GET)
 * export const GET = () => healthResponse(snowkeyHealth({ generator: gen, lease }), 'ready');
 */
export function healthResponse(report: SnowkeyHealth, probe: HealthProbe = 'ready'): Response {
  return new Response(JSON.stringify(report), {
    status: healthStatus(report, probe),
    headers: { 'content-type': 'application/json', 'cache-control': 'no-store' },
  });
}
