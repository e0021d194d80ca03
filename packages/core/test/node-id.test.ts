import { describe, expect, test } from 'vitest';
import { InvalidArgumentError, layouts, nodeIdFromEnv, Snowflake } from '../src/index.js';
import { nodeIdFromHostname, nodeIdFromIp } from '../src/node.js';

describe('node ids without a database', () => {
  test('GIVEN SNOWKEY_WORKER_ID THEN the default layout reads it', () => {
    expect(nodeIdFromEnv({ env: { SNOWKEY_WORKER_ID: '7' } })).toEqual({ workerId: 7 });
    const gen = new Snowflake({ ...nodeIdFromEnv({ env: { SNOWKEY_WORKER_ID: '7' } }) });
    expect(gen.decode(gen.nextId()).workerId).toBe(7);
  });

  test('GIVEN twitter fields in env THEN each is read under its upper snake name', () => {
    const env = { SNOWKEY_DATACENTER_ID: '3', SNOWKEY_WORKER_ID: '30' };
    expect(nodeIdFromEnv({ layout: layouts.twitter, env })).toEqual({ datacenterId: 3, workerId: 30 });
  });

  test('GIVEN SNOWKEY_NODE_ID THEN it is the packed id', () => {
    expect(nodeIdFromEnv({ layout: layouts.twitter, env: { SNOWKEY_NODE_ID: '1023' } })).toEqual({
      nodeId: 1023,
    });
  });

  test.each([
    [{}],
    [{ SNOWKEY_WORKER_ID: 'x' }],
    [{ SNOWKEY_WORKER_ID: '1024' }],
    [{ SNOWKEY_WORKER_ID: '-1' }],
  ])('GIVEN env %j THEN a typed error names the variable', (env) => {
    expect(() => nodeIdFromEnv({ env })).toThrow(InvalidArgumentError);
    expect(() => nodeIdFromEnv({ env })).toThrow(/"SNOWKEY_WORKER_ID"/);
  });

  test('GIVEN a StatefulSet host name THEN its ordinal is the node id', () => {
    expect(nodeIdFromHostname({ hostname: 'game-7' })).toBe(7);
  });

  test('GIVEN another host name THEN a stable hash within range', () => {
    const a = nodeIdFromHostname({ hostname: 'web.example.internal' });
    expect(a).toBe(nodeIdFromHostname({ hostname: 'web.example.internal' }));
    expect(a).toBeGreaterThanOrEqual(0);
    expect(a).toBeLessThanOrEqual(1023);
  });

  test('GIVEN an IPv4 THEN its low node bits', () => {
    expect(nodeIdFromIp({ ip: '10.0.3.7' })).toBe(((3 << 8) | 7) & 1023);
    expect(nodeIdFromIp({ layout: layouts.sonyflake, ip: '10.1.3.7' })).toBe((3 << 8) | 7);
    expect(() => nodeIdFromIp({ ip: '10.0.3.300' })).toThrow(/"ip" must be an IPv4/);
  });
});
