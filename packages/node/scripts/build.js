#!/usr/bin/env node
// Builds @warden/node for installation: dist/esm/*.js (ESM), dist/cjs/*.cjs (CommonJS), both
// bundled by esbuild with every package dependency left external (better-sqlite3 is loaded only
// by the receiver-sqlite entry) but the private @warden/protocol, whose code the SDK uses (the
// webhook signature's wire format) is bundled in, and the type declarations in dist/types (ESM)
// and dist/types-cjs (require). Run by `npm run build` and the root postinstall; `--if-possible`
// turns a missing esbuild/typescript (an install without development dependencies) into a warning.
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.dirname(path.dirname(fileURLToPath(import.meta.url)));
const dist = path.join(root, 'dist');
const ENTRIES = ['index', 'receiver-sqlite'];

let esbuild;
let buildSdkTypes;
try {
  esbuild = await import('esbuild');
  ({ buildSdkTypes } = await import('../../../scripts/sdk-types.js'));
  await import('typescript');
} catch (err) {
  if (!process.argv.includes('--if-possible')) throw err;
  console.warn('[warden node] esbuild or typescript is missing: @warden/node not built (run npm run build).');
  process.exit(0);
}

/** @warden/protocol is never published: resolve its imports to its sources so they are bundled. */
const bundleProtocol = {
  name: 'bundle-warden-protocol',
  setup(build) {
    const require = createRequire(import.meta.url);
    build.onResolve({ filter: /^@warden\/protocol(\/|$)/ }, (args) => ({ path: require.resolve(args.path) }));
  },
};

const started = performance.now();
fs.rmSync(dist, { recursive: true, force: true });
const common = {
  entryPoints: ENTRIES.map((e) => path.join(root, 'src', `${e}.ts`)),
  bundle: true,
  platform: 'node',
  target: 'node20',
  packages: 'external',
  plugins: [bundleProtocol],
  logLevel: 'warning',
  legalComments: 'none',
};
await Promise.all([
  esbuild.build({ ...common, format: 'esm', outdir: path.join(dist, 'esm'), outExtension: { '.js': '.js' } }),
  esbuild.build({
    ...common,
    format: 'cjs',
    outdir: path.join(dist, 'cjs'),
    outExtension: { '.js': '.cjs' },
  }),
]);
const files = await buildSdkTypes({
  packageDir: root,
  entries: ENTRIES.map((e) => `src/${e}.ts`),
  outDir: path.join(dist, 'types'),
  commonjsCopy: path.join(dist, 'types-cjs'),
});
console.log(
  `[warden node] built dist/esm, dist/cjs and ${files} declaration files in ${Math.round(performance.now() - started)} ms`,
);
