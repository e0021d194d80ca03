import { InvalidArgumentError } from '../errors.js';

/**
 * This pod's StatefulSet index (`SNOWKEY_POD_INDEX`, else the `HOSTNAME` ordinal), as a lease's
 * `preferredNodeId` only: a force-deleted pod and its replacement can share an ordinal.
 *
 * @example
 * const lease = await leaseNodeId({ client, layout: layouts.default, preferredNodeId: kubernetesPodIndex() });
 */
export function kubernetesPodIndex(
  options: { env?: Readonly<Record<string, string | undefined>>; variable?: string } = {},
): number | undefined {
  const env =
    options.env ??
    (globalThis as { process?: { env?: Record<string, string | undefined> } }).process?.env ??
    {};
  const variable = options.variable ?? 'SNOWKEY_POD_INDEX';
  const raw = env[variable];
  if (raw !== undefined && raw !== '') {
    if (!/^\d{1,9}$/.test(raw.trim())) {
      throw new InvalidArgumentError(variable, 'a pod index: an integer such as "3"', raw);
    }
    return Number(raw.trim());
  }
  const ordinal = /-(\d{1,9})$/.exec(env.HOSTNAME ?? '');
  return ordinal ? Number(ordinal[1]) : undefined;
}
