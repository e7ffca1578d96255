// node bench/prof-callers.mjs <profile> <name substring> [depth]: who calls the matching frames (by self time under them)
import fs from 'node:fs';

const p = JSON.parse(fs.readFileSync(process.argv[2]));
const match = process.argv[3];
const depth = Number(process.argv[4] ?? 3);
const byId = new Map(p.nodes.map((n) => [n.id, n]));
const parent = new Map();
for (const n of p.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
const key = (n) =>
  `${n.callFrame.functionName || '(anon)'} ${n.callFrame.url.split('/').slice(-2).join('/')}:${n.callFrame.lineNumber}`;
const self = new Map();
let total = 0;
for (let i = 0; i < p.samples.length; i++) {
  const d = p.timeDeltas[i] ?? 0;
  self.set(p.samples[i], (self.get(p.samples[i]) ?? 0) + d);
  total += d;
}
const stacks = new Map();
for (const [id, t] of self) {
  let cur = id;
  const chain = [];
  while (cur !== undefined) {
    chain.push(key(byId.get(cur)));
    cur = parent.get(cur);
  }
  const i = chain.findIndex((k) => k.includes(match));
  if (i < 0) continue;
  const s = chain.slice(i, i + depth + 1).join(' <- ');
  stacks.set(s, (stacks.get(s) ?? 0) + t);
}
for (const [s, t] of [...stacks].sort((a, b) => b[1] - a[1]).slice(0, 25))
  console.log(`${((100 * t) / total).toFixed(1).padStart(5)}%  ${s}`);
