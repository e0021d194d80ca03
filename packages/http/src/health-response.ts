import type { SnowkeyHealth } from '@snowkey/core';

/**
 * Which Kubernetes probe a health endpoint answers: `ready` (route traffic here: ids can be
 * issued now) or `live` (restart me: the lease was lost).
 *
 * @example
 * const probe: HealthProbe = 'ready';
 */
export type HealthProbe = 'ready' | 'live';

/**
 * The HTTP status of a probe for a `snowkeyHealth()` report: 200 when the probe passes, 503 when
 * it fails. A `warn` report passes both (ids still flow); its `problems` say what to look at.
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
 * For Hono, Next.js route handlers, Workers, Deno and Bun.
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
