import { fileURLToPath } from 'node:url';
import { leaseTableDdl } from '@snowkey/core';
import { expect, test } from 'vitest';
import { readMarkdownBlocks } from '../../scripts/doctest/markdown-blocks.js';

// Facts a README states that no program block can check by running: they are compared with the
// code that makes them true.

const leasesPage = fileURLToPath(new URL('../../docs/guide/node-ids-in-production.md', import.meta.url));
const words = (sql: string) =>
  sql
    .replace(/--[^\n]*/g, '')
    .replace(/\s+/g, ' ')
    .trim();

test('GIVEN the node-ids guide THEN its lease table SQL is the statement leaseTableDdl() runs', () => {
  const sql = readMarkdownBlocks(leasesPage).filter(
    (b) => b.lang === 'sql' && b.code.includes('snowkey_node_leases'),
  );
  expect(sql).toHaveLength(1);
  expect(words(sql[0]!.code)).toBe(words(leaseTableDdl('postgres')));
});
