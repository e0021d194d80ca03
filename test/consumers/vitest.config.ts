import { defineConfig } from 'vitest/config';

// The consumer apps: a run of their own, after the packages are packed (`pnpm test:consumers`;
// `.ci/run` runs it after `scripts/pack-check.mjs`). They install the tarballs into throwaway
// apps, which takes minutes, so the repository's `vitest run` leaves them out.
export default defineConfig({
  test: {
    include: ['test/consumers/**/*.test.ts'],
    testTimeout: 120_000,
    hookTimeout: 600_000,
    pool: 'forks',
  },
});
