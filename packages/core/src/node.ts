// @snowkey/core/node: what needs Node's built-ins (the host name, the network interfaces). The
// main entry imports none, so it loads in browsers, Workers and edge runtimes.
export { nodeIdFromHostname, nodeIdFromIp } from './node-id-host.js';
