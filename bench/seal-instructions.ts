/**
 * Instructions per packed row sealed (body and evidence deflated: what the writer thread does per
 * decision, decisions/packed-seal.mjs), counted by valgrind so that the machine's load does not
 * change them. Two steps, so that valgrind runs plain JavaScript only:
 *   node --import tsx bench/seal-instructions.ts [--out <file>]    # 50 engine-scored decisions of each
 *                                                                  # body kind, packed and pending
 *   valgrind --tool=callgrind node bench/seal-rows.mjs <file> 1000 bare
 *   valgrind --tool=callgrind node bench/seal-rows.mjs <file> 0 bare
 * The difference of the two totals over 1,000 is the instructions per row sealed (kinds: bare,
 * evidence; bench/lib/verify-bodies.ts).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { PACKED_DICTIONARY, packDecision } from '../packages/server/src/decisions/packed-row.ts';
import { arg } from './lib/args.ts';
import { scoredDecisions, scoringContext } from './lib/scored-decisions.ts';
import { bareBody, evidenceBody } from './lib/verify-bodies.ts';

const OUT = arg('out') ?? path.join(os.tmpdir(), 'warden-seal-rows.json');

const scoring = await scoringContext();
const rows: Record<string, unknown[]> = {};
for (const [kind, body] of [
  ['bare', bareBody],
  ['evidence', (n: number) => evidenceBody(n, false)],
] as const) {
  const scored = await scoredDecisions(scoring, body, 50);
  rows[kind] = scored.map(({ columns, parts }) => {
    const { packed, packed_evidence } = packDecision(columns, parts);
    return { packed, packed_evidence };
  });
}
fs.writeFileSync(OUT, JSON.stringify({ dictionary: PACKED_DICTIONARY, rows }));
console.log(`pending rows written to ${OUT}`);
await scoring.close();
