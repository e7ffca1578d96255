/**
 * Builds the dashboard into packages/dashboard/dist (vite.config.ts prints the gzip size and
 * enforces the budget). `--if-possible` (postinstall) turns a missing Vite into a warning:
 * the server then answers /dashboard with 503 and the command to run.
 */
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.dirname(path.dirname(fileURLToPath(import.meta.url)));
const ifPossible = process.argv.includes('--if-possible');

type Vite = typeof import('vite');
let vite: Vite;
try {
  vite = await import('vite');
} catch (err) {
  if (!ifPossible) throw err;
  console.warn('[warden dashboard] vite is not installed: dashboard not built (/dashboard answers 503).');
  process.exit(0);
}

await vite.build({ configFile: path.join(root, 'vite.config.ts'), logLevel: 'warn' });
