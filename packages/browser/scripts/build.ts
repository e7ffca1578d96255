/**
 * Builds the browser SDK: dist/warden.js (IIFE, global `Warden`), dist/warden.mjs (ESM),
 * dist/warden-worker.js (proof-of-work + probe worker, with the generated SHA-256 WASM inside)
 * and dist/sha256.wasm, and the type declarations of the npm package in dist/types (see
 * scripts/sdk-types.js). Prints raw and gzip sizes. `--if-possible` (postinstall) turns a missing
 * esbuild into a warning instead of a failure.
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { buildSha256Wasm } from '../src/pow/wasm-gen.ts';

const root = path.dirname(path.dirname(fileURLToPath(import.meta.url)));
const dist = path.join(root, 'dist');
const ifPossible = process.argv.includes('--if-possible');

type Esbuild = typeof import('esbuild');
let esbuild: Esbuild;
try {
  esbuild = await import('esbuild');
} catch (err) {
  if (!ifPossible) throw err;
  console.warn('[warden browser] esbuild is not installed: SDK bundle not built (/sdk answers 503).');
  process.exit(0);
}

fs.mkdirSync(dist, { recursive: true });
const wasm = buildSha256Wasm();
fs.writeFileSync(path.join(dist, 'sha256.wasm'), wasm);

const common = {
  bundle: true,
  minify: true,
  target: 'es2020',
  legalComments: 'none' as const,
  logLevel: 'warning' as const,
  banner: { js: '/* Warden browser SDK v1 */' },
};

await Promise.all([
  esbuild.build({
    ...common,
    entryPoints: [path.join(root, 'src/index.ts')],
    format: 'iife',
    globalName: 'Warden',
    outfile: path.join(dist, 'warden.js'),
  }),
  esbuild.build({
    ...common,
    entryPoints: [path.join(root, 'src/index.ts')],
    format: 'esm',
    outfile: path.join(dist, 'warden.mjs'),
  }),
  esbuild.build({
    ...common,
    entryPoints: [path.join(root, 'src/worker/main.ts')],
    format: 'iife',
    define: { __WARDEN_SHA256_WASM__: JSON.stringify(Buffer.from(wasm).toString('base64')) },
    outfile: path.join(dist, 'warden-worker.js'),
  }),
]);

// The npm package's types; the served scripts do not need them, so a missing TypeScript (an
// install without development dependencies) only skips them under --if-possible.
try {
  const { buildSdkTypes } = await import('../../../scripts/sdk-types.js');
  await buildSdkTypes({
    packageDir: root,
    entries: ['src/index.ts'],
    outDir: path.join(dist, 'types'),
    lib: ['lib.es2023.d.ts', 'lib.dom.d.ts', 'lib.dom.iterable.d.ts', 'lib.webworker.importscripts.d.ts'],
  });
} catch (err) {
  if (!ifPossible) throw err;
  console.warn(`[warden browser] type declarations not built: ${(err as Error).message}`);
}

const kib = (n: number) => `${(n / 1024).toFixed(1)} KiB`;
for (const file of ['warden.js', 'warden.mjs', 'warden-worker.js', 'sha256.wasm']) {
  const bytes = fs.readFileSync(path.join(dist, file));
  console.log(
    `${file.padEnd(18)} ${kib(bytes.length).padStart(9)}  gzip ${kib(gzipSync(bytes, { level: 9 }).length)}`,
  );
}
