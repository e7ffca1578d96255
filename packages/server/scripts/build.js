#!/usr/bin/env node
// Builds the `warden` CLI and server into dist/ (see bundle.js): run by `npm run build` and by the
// root postinstall, so `warden` starts from plain JavaScript. `--if-possible` (postinstall) turns
// a missing esbuild (an install without development dependencies) into a warning.
import path from 'node:path';

const ifPossible = process.argv.includes('--if-possible');
let buildCli;
try {
  ({ buildCli } = await import('./bundle.js'));
} catch (err) {
  if (!ifPossible || err?.code !== 'ERR_MODULE_NOT_FOUND') throw err;
  console.warn('[warden server] esbuild is not installed: dist/warden.mjs not built (run npm run build).');
  process.exit(0);
}
const started = performance.now();
const { entry, files } = await buildCli();
const ms = Math.round(performance.now() - started);
console.log(
  `[warden server] built ${path.relative(process.cwd(), entry)} and ${files - 1} chunks in ${ms} ms`,
);
