// node bench/prof.mjs <file.cpuprofile> [selfRows] [inclusiveRows]: self and inclusive time by function of a
// --cpu-prof profile (npm run bench -- --cpu-prof). The V8 profiler samples wall time: on a busy
// machine, a call that wakes another thread or process (postMessage, socket and pipe writes) shows
// the preemption that follows as its own time. Compare with the CPU per thread (--threads).
import fs from 'node:fs';

const p = JSON.parse(fs.readFileSync(process.argv[2]));
const byId = new Map(p.nodes.map((n) => [n.id, n]));
const parent = new Map();
for (const n of p.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
const self = new Map();
const dt = p.timeDeltas;
let total = 0;
for (let i = 0; i < p.samples.length; i++) {
  const d = dt[i] ?? 0;
  self.set(p.samples[i], (self.get(p.samples[i]) ?? 0) + d);
  total += d;
}
const selfBy = new Map(),
  inclBy = new Map();
const key = (n) =>
  `${n.callFrame.functionName || '(anon)'} ${n.callFrame.url.split('/').slice(-2).join('/')}:${n.callFrame.lineNumber}`;
for (const [id, t] of self) {
  const n = byId.get(id);
  selfBy.set(key(n), (selfBy.get(key(n)) ?? 0) + t);
  const seen = new Set();
  let cur = id;
  while (cur !== undefined) {
    const k = key(byId.get(cur));
    if (!seen.has(k)) {
      seen.add(k);
      inclBy.set(k, (inclBy.get(k) ?? 0) + t);
    }
    cur = parent.get(cur);
  }
}
const top = (m, n) =>
  [...m]
    .sort((a, b) => b[1] - a[1])
    .slice(0, n)
    .map(([k, t]) => `${((100 * t) / total).toFixed(1).padStart(5)}%  ${k}`)
    .join('\n');
console.log('total ms', (total / 1000).toFixed(0));
console.log('--- self');
console.log(top(selfBy, Number(process.argv[3] ?? 40)));
console.log('--- inclusive');
console.log(top(inclBy, Number(process.argv[4] ?? 60)));
