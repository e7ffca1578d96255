import { defineConfig } from 'vitest/config';

/** `warden-source`: workspace SDK packages resolve to their TypeScript sources, not their build. */
const conditions = ['warden-source'];

export default defineConfig({
  resolve: { conditions: [...conditions, 'module', 'node', 'development|production'] },
  ssr: { resolve: { conditions: [...conditions, 'node', 'development|production'] } },
  test: {
    include: [
      'packages/*/src/**/*.test.ts',
      'packages/*/test/**/*.test.ts',
      'eval/lib/**/*.test.ts',
      'eval/keys/**/*.test.ts',
      'eval/aiming/**/*.test.ts',
      'eval/browsers/paths/**/*.test.ts',
      'eval/aiming-bots/**/*.test.ts',
      'scripts/**/*.test.ts',
    ],
    testTimeout: 20_000,
    hookTimeout: 30_000,
    pool: 'forks',
  },
});
