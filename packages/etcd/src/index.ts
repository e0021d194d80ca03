export { inspectEtcdLeases } from './etcd-lease-inspection.js';
export { DEFAULT_ETCD_PREFIX, type EtcdLeaseOptions } from './etcd-lease-options.js';
export { leaseEtcdNodeId } from './lease-etcd-node-id.js';
