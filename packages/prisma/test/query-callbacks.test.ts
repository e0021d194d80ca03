import { describe, expect, test } from 'vitest';
import { hasWriteQueryCallbacks } from '../src/query-callbacks.js';

// Prisma's extension list is not a public API: what snowkey does when it looks different.
describe('hasWriteQueryCallbacks()', () => {
  const models = ['Player', 'MatchRound'];
  const clientWith = (getAllQueryCallbacks?: (delegate: string, operation: string) => unknown) =>
    getAllQueryCallbacks ? { _extensions: { getAllQueryCallbacks } } : {};

  test('GIVEN no extension list THEN it answers yes (the query extension, which is always right)', () => {
    expect(hasWriteQueryCallbacks(clientWith(), models)).toBe(true);
    expect(hasWriteQueryCallbacks({ _extensions: {} }, models)).toBe(true);
  });

  test('GIVEN a list that is not an array THEN it answers yes', () => {
    expect(
      hasWriteQueryCallbacks(
        clientWith(() => undefined),
        models,
      ),
    ).toBe(true);
  });

  test('GIVEN no callback on any write THEN it answers no, having asked for every model given, by its delegate name, and every write', () => {
    const asked: string[] = [];
    const client = clientWith((delegate, operation) => {
      asked.push(`${delegate}.${operation}`);
      return [];
    });
    expect(hasWriteQueryCallbacks(client, models)).toBe(false);
    expect(asked).toEqual(
      ['player', 'matchRound'].flatMap((d) =>
        ['create', 'createMany', 'createManyAndReturn', 'upsert', 'update'].map((op) => `${d}.${op}`),
      ),
    );
  });

  test('GIVEN a callback on one write of one model THEN it answers yes', () => {
    const client = clientWith((delegate, operation) =>
      delegate === 'matchRound' && operation === 'upsert' ? [() => undefined] : [],
    );
    expect(hasWriteQueryCallbacks(client, models)).toBe(true);
  });

  test('GIVEN a callback only on a write of a model not given (one whose writes hold no snowflake id) THEN it answers no', () => {
    const client = clientWith((delegate) => (delegate === 'auditEntry' ? [() => undefined] : []));
    expect(hasWriteQueryCallbacks(client, models)).toBe(false);
    expect(hasWriteQueryCallbacks(client, [...models, 'AuditEntry'])).toBe(true);
  });
});
