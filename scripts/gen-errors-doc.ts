// Regenerates docs/errors.md from the one error table: node --import tsx scripts/gen-errors-doc.ts
import fs from 'node:fs';
import { ERROR_CODES } from '../packages/server/src/errors.ts';

const head = fs.readFileSync('docs/errors.md', 'utf8').split('| status | code | when |')[0];
const rows = Object.entries(ERROR_CODES).map(
  ([code, { status, description }]) => `| ${status} | \`${code}\` | ${description} |`,
);
fs.writeFileSync('docs/errors.md', `${head}| status | code | when |\n|---|---|---|\n${rows.join('\n')}\n`);
