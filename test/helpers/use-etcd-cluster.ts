import { afterAll, beforeAll } from 'vitest';
import { type EtcdCluster, etcdMissing, startEtcdCluster } from './etcd-cluster.js';

export type { EtcdCluster, EtcdMember } from './etcd-cluster.js';

/**
 * Starts a 3-member cluster for the test file (stopped and its directory removed after it). Without
 * etcd the file's tests are skipped with the reason, except with `CI=true`, where they fail.
 *
 * @example
 * const etcd = useEtcdCluster();
 * test.skipIf(etcd.skip)('...', async () => { const client = etcd.cluster.client(); });
 */
export function useEtcdCluster(): { readonly cluster: EtcdCluster; readonly skip: boolean } {
  const missing = etcdMissing();
  if (missing && process.env.CI === 'true') throw new Error(missing);
  if (missing) console.warn(`skipping the etcd tests: ${missing}`);
  let cluster: EtcdCluster | undefined;
  beforeAll(async () => {
    if (!missing) cluster = await startEtcdCluster();
  });
  afterAll(async () => {
    await cluster?.stop();
  });
  return {
    skip: missing !== undefined,
    get cluster() {
      if (!cluster) throw new Error('the etcd cluster is not running');
      return cluster;
    },
  };
}
