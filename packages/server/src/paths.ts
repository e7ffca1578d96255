import { fileURLToPath } from 'node:url';

/**
 * The monorepo's packages/ directory. This file sits directly in src/, and the build's entry and
 * chunks (scripts/bundle.js) directly in dist/: the same depth, so the same relative URL works
 * from both.
 */
export const PACKAGES_DIR = fileURLToPath(new URL('../../', import.meta.url));
