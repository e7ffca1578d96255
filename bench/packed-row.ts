/**
 * `node --import tsx bench/packed-row.ts`: the CPU cost of packing and unpacking a decision's JSON
 * parts (packages/server/src/decisions/packed-row.ts) next to JSON.stringify of the same parts (what
 * recording cost before packing), on the decisions of bench/lib/verify-bodies.ts's two body kinds
 * as a real engine scores them. Packing is split: `pack` runs on the request thread (builds the
 * body's JSON), `seal` where the row is committed (the writer thread for a SQLite file: deflate).
 * Prints CPU µs per decision of each and the stored bytes of the JSON parts and of the columns
 * format 2 shortens (signals, user agent, workspace id).
 * Options: --decisions <n> (default 200 of each kind), --rounds <n> (default 20).
 */
import { packDecision, sealedDecision, unpackDecision } from '../packages/server/src/decisions/packed-row.ts';
import { signalsColumn } from '../packages/server/src/decisions/signals-column.ts';
import { arg } from './lib/args.ts';
import { scoredDecisions, scoringContext } from './lib/scored-decisions.ts';
import { bareBody, evidenceBody } from './lib/verify-bodies.ts';

const DECISIONS = Number(arg('decisions') ?? 200);
const ROUNDS = Number(arg('rounds') ?? 20);

const scoring = await scoringContext();

for (const [kind, body] of [
  ['context-only', bareBody],
  ['browser evidence', (n: number) => evidenceBody(n, false)],
] as const) {
  const scored = await scoredDecisions(scoring, body, DECISIONS);
  // CPU time of this process (user + system), not wall time: steady on a shared machine.
  const time = (work: () => void) => {
    const started = process.cpuUsage();
    for (let r = 0; r < ROUNDS; r++) work();
    const used = process.cpuUsage(started);
    return (used.user + used.system) / (ROUNDS * scored.length);
  };
  const stringify = time(() => {
    for (const { parts } of scored) {
      JSON.stringify(parts.features);
      JSON.stringify(parts.evidence);
      JSON.stringify(parts.answer);
      JSON.stringify(parts.ruleInput);
    }
  });
  const pending = scored.map(({ columns, parts }) => ({ ...columns, ...packDecision(columns, parts) }));
  const packed = pending.map((row) => sealedDecision(row));
  // Building the signals column (signalsColumn: its JSON too) is counted in packing.
  const pack = time(() => {
    for (const { columns, parts } of scored)
      packDecision(columns, { ...parts, signals: signalsColumn(parts.signals?.of ?? []) });
  });
  const seal = time(() => {
    for (const row of pending) sealedDecision(row);
  });
  const unpack = time(() => {
    for (const row of packed) unpackDecision(row);
  });
  const jsonBytes =
    scored.reduce(
      (sum, { columns, parts }) =>
        sum +
        JSON.stringify(parts.features).length +
        JSON.stringify(parts.evidence).length +
        JSON.stringify(parts.answer).length +
        (parts.ruleInput ? JSON.stringify(parts.ruleInput).length : 0) +
        columns.signals.length +
        columns.user_agent.length +
        columns.workspace_id.length,
      0,
    ) / scored.length;
  const packedBytes =
    packed.reduce(
      (sum, r) =>
        sum +
        r.features.length +
        (r.packed?.length ?? 0) +
        (r.packed_evidence?.length ?? 0) +
        r.signals.length +
        r.user_agent.length +
        r.workspace_id.length,
      0,
    ) / packed.length;
  console.log(
    `${kind}: JSON parts and columns ${jsonBytes.toFixed(0)} B → stored ${packedBytes.toFixed(0)} B; ` +
      `JSON.stringify ${stringify.toFixed(1)} µs; request thread: pack ${pack.toFixed(1)} µs ` +
      `(${(pack / stringify).toFixed(1)}×); writer: seal ${seal.toFixed(1)} µs; ` +
      `unpack ${unpack.toFixed(1)} µs per decision`,
  );
}
await scoring.close();
