import { InvalidArgumentError } from '../errors.js';

/**
 * The index of this pod in its Kubernetes StatefulSet, to pass as `leaseNodeId`'s
 * `preferredNodeId`: from the variable `SNOWKEY_POD_INDEX` (map the pod's
 * `apps.kubernetes.io/pod-index` label into it with the downward API), else from the ordinal at
 * the end of `HOSTNAME` (a StatefulSet pod is named `<set>-<ordinal>`); `undefined` when neither
 * gives one. It is a preference, never a node id on its own: a force-deleted pod and its
 * replacement can run with the same ordinal, so the lease decides.
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
