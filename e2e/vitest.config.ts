import { defineConfig } from 'vitest/config';

/** `npm run e2e`: real-browser tests against a real server (Debian chromium via playwright-core). */
export default defineConfig({
  // Workspace SDK packages resolve to their TypeScript sources (see vitest.config.ts).
  resolve: { conditions: ['warden-source', 'module', 'node', 'development|production'] },
  ssr: { resolve: { conditions: ['warden-source', 'node', 'development|production'] } },
  test: {
    include: ['e2e/**/*.e2e.test.ts'],
    testTimeout: 60_000,
    hookTimeout: 120_000,
    pool: 'forks',
    fileParallelism: false,
  },
});
