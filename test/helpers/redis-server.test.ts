import { describe, expect, test } from 'vitest';
import { resolveRedisUncached } from './redis-server.js';

describe('an unreachable Redis', () => {
  test('GIVEN CI=true AND SNOWKEY_REDIS_URL at a closed port THEN resolving it throws, naming the URL (password hidden) and the variable', async () => {
    await expect(
      resolveRedisUncached({ CI: 'true', SNOWKEY_REDIS_URL: 'redis://:secret@127.0.0.1:1' }),
    ).rejects.toThrow(
      /CI=true and Redis at redis:\/\/:\*\*\*@127\.0\.0\.1:1 \(from SNOWKEY_REDIS_URL\) is unreachable \(ECONNREFUSED\).*SNOWKEY_REDIS_URL/,
    );
  });

  test('GIVEN no CI THEN it resolves to a skip with the reason', async () => {
    expect(await resolveRedisUncached({ SNOWKEY_REDIS_URL: 'redis://127.0.0.1:1' })).toEqual({
      kind: 'skip',
      reason: 'Redis at redis://127.0.0.1:1 (from SNOWKEY_REDIS_URL) is unreachable (ECONNREFUSED)',
    });
  });
});
