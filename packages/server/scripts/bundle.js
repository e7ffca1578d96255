// Bundles Warden's TypeScript sources (this package and the @warden/* workspace packages it
// imports) into ES modules with esbuild, so production runs plain JavaScript: no TypeScript
// loader thread, no per-module transforms, about 30 MB less memory. Third-party packages stay
// external and load from node_modules as usual. Used at install/build time only (esbuild is a
// development dependency): scripts/build.js builds the CLI, bench/verify.ts its bench servers.
// Output goes to dist/, the same depth below the package as src/, so paths built from
// import.meta.url (src/paths.ts) resolve the same from the sources and from the bundle.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import * as esbuild from 'esbuild';

export const PACKAGE_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
export const DIST_DIR = path.join(PACKAGE_DIR, 'dist');

/**
 * Plain-JavaScript dependencies bundled in rather than loaded from node_modules: each is hundreds of
 * small ES modules (kysely alone took ~0.5 s to load on a busy machine), and neither has native
 * parts, data files or worker scripts that need their own paths. Nothing outside the bundle
 * shares their classes.
 */
const INLINED = new Set(['kysely', 'jose']);

function thirdPartyDependencies() {
  const manifest = JSON.parse(fs.readFileSync(path.join(PACKAGE_DIR, 'package.json'), 'utf8'));
  return Object.keys(manifest.dependencies ?? {}).filter(
    (name) => !name.startsWith('@warden/') && !INLINED.has(name),
  );
}

/** Write `contents` to `file` through a temporary file and a rename: readers never see half a file. */
function writeAtomically(file, contents) {
  const temporary = `${file}.${process.pid}.tmp`;
  try {
    fs.writeFileSync(temporary, contents);
    fs.renameSync(temporary, file);
  } finally {
    fs.rmSync(temporary, { force: true });
  }
}

async function build(options) {
  try {
    const result = await esbuild.build({
      bundle: true,
      platform: 'node',
      format: 'esm',
      target: 'node20',
      external: thirdPartyDependencies(),
      logLevel: 'warning',
      write: false,
      ...options,
    });
    return result.outputFiles;
  } finally {
    await esbuild.stop();
  }
}

/**
 * Bundle `entry` (a path relative to this package, or absolute) into one file, dist/`name`.mjs, and
 * return its path. Processes starting at the same moment never import a half-written bundle.
 */
export async function bundle(entry, name) {
  const outfile = path.join(DIST_DIR, `${name}.mjs`);
  const [output] = await build({ entryPoints: [path.resolve(PACKAGE_DIR, entry)], outfile });
  fs.mkdirSync(DIST_DIR, { recursive: true });
  writeAtomically(outfile, output.contents);
  return outfile;
}

const CHUNK_PREFIX = 'warden-chunk-';
/** Chunks of an earlier build stay this long, for a process that loaded that build's entry. */
const OLD_CHUNK_GRACE_MS = 60_000;

/**
 * Build the CLI, src/cli.ts, into dist/warden.mjs plus chunks (dist/warden-chunk-<hash>.mjs, beside
 * it so import.meta.url keeps the depth of src/) that it imports on demand: `--version` and `--help`
 * load no server code, the admin commands no HTTP server. Chunks are named by their content and
 * written before the entry, so a process starting during a build loads a complete set.
 */
export async function buildCli() {
  const outputs = await build({
    entryPoints: { warden: path.join(PACKAGE_DIR, 'src/cli.ts') },
    outdir: DIST_DIR,
    splitting: true,
    chunkNames: `${CHUNK_PREFIX}[hash]`,
    outExtension: { '.js': '.mjs' },
  });
  const entry = path.join(DIST_DIR, 'warden.mjs');
  fs.mkdirSync(DIST_DIR, { recursive: true });
  const written = new Set();
  for (const output of outputs) {
    if (output.path === entry) continue;
    writeAtomically(output.path, output.contents);
    written.add(path.basename(output.path));
  }
  const main = outputs.find((output) => output.path === entry);
  if (!main) throw new Error('esbuild produced no dist/warden.mjs');
  writeAtomically(entry, main.contents);
  const now = Date.now();
  for (const file of fs.readdirSync(DIST_DIR)) {
    if (!file.startsWith(CHUNK_PREFIX) || written.has(file)) continue;
    const full = path.join(DIST_DIR, file);
    if (now - fs.statSync(full).mtimeMs > OLD_CHUNK_GRACE_MS) fs.rmSync(full, { force: true });
  }
  return { entry, files: outputs.length };
}
