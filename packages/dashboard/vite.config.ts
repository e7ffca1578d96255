import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import react from '@vitejs/plugin-react';
import { defineConfig, type Plugin } from 'vite';

const root = path.dirname(fileURLToPath(import.meta.url));
const dist = path.join(root, 'dist');
/** The dashboard's JavaScript must stay small: no UI or chart libraries. */
const GZIP_BUDGET = 250 * 1024;

/** Prints the gzip size of every built script and fails the build over the budget. */
function gzipBudget(): Plugin {
  return {
    name: 'warden-gzip-budget',
    apply: 'build',
    closeBundle() {
      const assets = path.join(dist, 'assets');
      if (!fs.existsSync(assets)) return;
      let js = 0;
      let css = 0;
      for (const name of fs.readdirSync(assets)) {
        const size = gzipSync(fs.readFileSync(path.join(assets, name))).length;
        if (name.endsWith('.js')) js += size;
        else if (name.endsWith('.css')) css += size;
      }
      const kib = (n: number) => `${(n / 1024).toFixed(1)} KiB`;
      console.log(
        `[warden dashboard] gzip: JavaScript ${kib(js)} (budget ${kib(GZIP_BUDGET)}), CSS ${kib(css)}`,
      );
      if (js > GZIP_BUDGET)
        throw new Error(`dashboard JavaScript is ${kib(js)} gzipped, over ${kib(GZIP_BUDGET)}`);
    },
  };
}

export default defineConfig({
  root,
  base: '/dashboard/',
  plugins: [react(), gzipBudget()],
  build: { outDir: dist, emptyOutDir: true, sourcemap: false, target: 'es2022' },
  server: { proxy: { '/api': 'http://127.0.0.1:8080' } },
});
