import { SnowkeyError, UnsupportedPeerError } from '@snowkey/core';
import { assertPeerVersion } from '@snowkey/core/adapter';
import { describe, expect, test } from 'vitest';
import { satisfiesVersionRange } from '../src/version-range.js';
import { caught } from './caught.js';

describe('satisfiesVersionRange', () => {
  test.each([
    ['3.0.1', '^3.0.1'],
    ['3.3.0', '^3.0.1'],
    ['3.99.99', '^3.0.1'],
    ['0.3.20', '^0.3.20'],
    ['0.3.28', '^0.3.20 || ^1.0.0'],
    ['1.1.1', '^0.3.20 || ^1.0.0'],
    ['0.0.3', '^0.0.3'],
    ['0.28.0', '>=0.28.0 <0.30.0'],
    ['0.29.9', '>=0.28.0 <0.30.0'],
    ['12.5.1', '^11.0.0 || ^12.0.0'],
    ['6.37.8+build.5', '^6.37.0'],
  ])('GIVEN %s THEN it is inside %s', (version, range) => {
    expect(satisfiesVersionRange(version, range)).toBe(true);
  });

  test.each([
    ['3.0.0', '^3.0.1', 'below'],
    ['2.5.1', '^3.0.1', 'below'],
    ['4.0.0', '^3.0.1', 'above'],
    ['0.4.0', '^0.3.20', 'above: a 0.x caret stops at the next minor'],
    ['0.0.4', '^0.0.3', 'above: a 0.0.x caret stops at the next patch'],
    ['0.3.19', '^0.3.20 || ^1.0.0', 'below'],
    ['2.0.0', '^0.3.20 || ^1.0.0', 'above'],
    ['0.27.9', '>=0.28.0 <0.30.0', 'below'],
    ['0.30.0', '>=0.28.0 <0.30.0', 'above'],
    ['10.4.0', '^11.0.0 || ^12.0.0', 'below'],
    ['13.0.0', '^11.0.0 || ^12.0.0', 'above'],
    ['', '^3.0.1', 'not semver'],
    ['3.x', '^3.0.1', 'not semver'],
  ])('GIVEN %s THEN it is outside %s (%s)', (version, range) => {
    expect(satisfiesVersionRange(version, range)).toBe(false);
  });

  test.each([
    ['7.1.0-dev.2', '^7.0.0', true],
    ['7.0.1-rc.1', '^7.0.0', true],
    ['7.0.0-rc.1', '^7.0.0', false],
    ['8.0.0-beta.1', '^7.0.0', false],
    ['8.0.0-0', '^7.0.0', false],
    ['1.0.0-beta.3', '^0.3.20 || ^1.0.0', false],
    ['0.3.21-dev.8', '^0.3.20 || ^1.0.0', true],
    ['1.2.3-alpha.1', '>=1.2.3-alpha.1 <1.2.3', true],
    ['1.2.3-alpha.0', '>=1.2.3-alpha.1 <1.2.3', false],
    ['1.2.3-alpha.10', '>=1.2.3-alpha.9 <1.2.3', true],
    ['1.2.3-alpha', '>=1.2.3-alpha.1 <1.2.3', false],
    ['1.2.3-beta', '>=1.2.3-alpha.1 <1.2.3', true],
    ['1.2.3-1', '>=1.2.3-alpha <1.2.3', false],
  ])(
    'GIVEN the prerelease %s THEN it counts by its place in semver order in %s (%s)',
    (version, range, inside) => {
      expect(satisfiesVersionRange(version, range)).toBe(inside);
    },
  );

  test.each(['', '^3', '>=x', 'latest', '1.x', '~3.0.1', '3.0.1', '>3.0.0', '<=3.0.1'])(
    'GIVEN the range %j, of a shape the matcher does not read THEN no version satisfies it',
    (range) => {
      expect(satisfiesVersionRange('3.0.1', range)).toBe(false);
    },
  );
});

describe('assertPeerVersion', () => {
  test('GIVEN a version outside the range THEN an UnsupportedPeerError names the package, the version and the range', () => {
    const err = caught(() => assertPeerVersion('@snowkey/knex', 'knex', '2.5.1', '^3.0.1'));
    expect(err).toBeInstanceOf(UnsupportedPeerError);
    expect(err).toBeInstanceOf(SnowkeyError);
    expect(err).toMatchObject({
      name: 'UnsupportedPeerError',
      code: 'SNOWKEY_UNSUPPORTED_PEER',
      adapter: '@snowkey/knex',
      peer: 'knex',
      found: '2.5.1',
      expected: '^3.0.1',
      message: '@snowkey/knex needs knex ^3.0.1 (found knex 2.5.1)',
    });
  });

  test('GIVEN a version inside the range THEN it returns', () => {
    expect(assertPeerVersion('@snowkey/knex', 'knex', '3.3.0', '^3.0.1')).toBeUndefined();
  });
});
