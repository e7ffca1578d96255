// `node bench/seal-rows.mjs <file> <rows> [bare|evidence]`: seals <rows> of the pending rows that
// bench/seal-instructions.ts wrote (with the dictionary of the checkout that wrote them), for
// valgrind's instruction count; plain JavaScript, no TypeScript loader to count. See
// bench/seal-instructions.ts.
import fs from 'node:fs';
import { sealDecisionRow } from '../packages/server/src/decisions/packed-seal.mjs';

const [file, count = '1000', kind = 'bare'] = process.argv.slice(2);
const { dictionary, rows } = JSON.parse(fs.readFileSync(file, 'utf8'));
const pending = rows[kind];
const sealing = Buffer.from(dictionary);
let bytes = 0;
for (let i = 0; i < Number(count); i++) {
  const row = sealDecisionRow({ ...pending[i % pending.length], workspace_id: 'w' }, sealing);
  bytes += row.packed.length + (row.packed_evidence?.length ?? 0);
}
console.log(
  `${count} rows sealed, ${Number(count) > 0 ? (bytes / Number(count)).toFixed(0) : 0} B packed a row`,
);
