import { InvalidArgumentError, kubernetesPodIndex } from '@snowkey/core';
import { expect, test } from 'vitest';
import { parseHolderToken } from '../src/lease/holder-token.js';

test.each([
  [{ SNOWKEY_POD_INDEX: '3', HOSTNAME: 'game-7' }, 3],
  [{ SNOWKEY_POD_INDEX: ' 12 ' }, 12],
  [{ HOSTNAME: 'game-7' }, 7],
  [{ SNOWKEY_POD_INDEX: '', HOSTNAME: 'game-0' }, 0],
  [{ HOSTNAME: 'web-5d8f7c9b6-xk2lp' }, undefined],
  [{}, undefined],
])('GIVEN the environment %j THEN the pod index is %s', (env, expected) => {
  expect(kubernetesPodIndex({ env })).toBe(expected);
});

test('GIVEN another variable name THEN it is read instead', () => {
  expect(kubernetesPodIndex({ env: { POD_INDEX: '4', SNOWKEY_POD_INDEX: '9' }, variable: 'POD_INDEX' })).toBe(
    4,
  );
});

test('GIVEN a pod index that is not an integer THEN the error names the variable', () => {
  const read = () => kubernetesPodIndex({ env: { SNOWKEY_POD_INDEX: 'three' } });
  expect(read).toThrow(InvalidArgumentError);
  expect(read).toThrow('"SNOWKEY_POD_INDEX" must be a pod index: an integer such as "3" (received "three")');
});

test.each([
  [
    'pid-42@web-3/2026-01-01T00:00:00.000Z/5f0c2d1e',
    { label: 'pid-42@web-3', acquiredAt: Date.UTC(2026, 0, 1), token: '5f0c2d1e' },
  ],
  ['a/b/2026-01-01T00:00:00.000Z/x', { label: 'a/b', acquiredAt: Date.UTC(2026, 0, 1), token: 'x' }],
  ['pid-42/5f0c2d1e', { label: 'pid-42', token: '5f0c2d1e' }],
  ['written-by-hand', { label: 'written-by-hand' }],
])('GIVEN the holder %s THEN its parts are %j', (holder, parts) => {
  expect(parseHolderToken(holder)).toEqual(parts);
});
