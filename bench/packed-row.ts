/**
 * `node --import tsx bench/packed-row.ts`: the CPU cost of packing and unpacking a decision's JSON
 * parts (packages/server/src/decisions/packed-row.ts) next to JSON.stringify of the same parts (what
 * recording cost before packing), on the decisions of bench/lib/verify-bodies.ts's two body kinds
 * as a real engine scores them. Prints CPU µs per decision and stored bytes of the JSON parts.
 * Options: --decisions <n> (default 200 of each kind), --rounds <n> (default 20).
 */
import { packDecision, unpackDecision } from '../packages/server/src/decisions/packed-row.ts';
import { decisionData } from '../packages/server/src/pipeline/record.ts';
import { createTestWorkspace } from '../packages/server/src/testing/accounts.ts';
import { createTestContext } from '../packages/server/src/testing/context.ts';
import { arg } from './lib/args.ts';
import { bareBody, evidenceBody } from './lib/verify-bodies.ts';

const DECISIONS = Number(arg('decisions') ?? 200);
const ROUNDS = Number(arg('rounds') ?? 20);

const ctx = await createTestContext();
const w = await createTestWorkspace(ctx, { plan: 'pro' });
const engine = ctx.services.engine;

for (const [kind, body] of [
  ['context-only', bareBody],
  ['browser evidence', (n: number) => evidenceBody(n, false)],
] as const) {
  const scored: Array<{
    columns: Parameters<typeof packDecision>[0];
    parts: Parameters<typeof packDecision>[1];
  }> = [];
  for (let n = 0; n < DECISIONS; n++) {
    const request = JSON.parse(body(n));
    const now = Date.now();
    const result = await engine.score({
      ctx,
      site: w.site as never,
      workspace: { id: w.workspaceId } as never,
      surface: 'server',
      request,
      ip: request.context.ip_address,
      userAgent: request.context.user_agent,
      decisionId: crypto.randomUUID(),
      now,
    } as never);
    const answer = decisionData(crypto.randomUUID(), result, 1.234, now);
    const columns = {
      id: answer.request_id,
      classification: result.classification,
      risk_score: result.risk_score,
      risk_level: result.risk_level,
      action: result.action,
      device_id: result.device_id,
      signals: JSON.stringify(result.signals),
      decision_ms: answer.decision_ms,
      created_at: now,
      ruleset_version: result.ruleset_version,
    };
    const parts = {
      features: result.features,
      evidence: result.evidence,
      ruleInput: result.rule_input ?? null,
      answer: answer as unknown as Record<string, unknown>,
    };
    scored.push({ columns, parts });
  }
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
  const packed = scored.map(({ columns, parts }) => ({ ...columns, ...packDecision(columns, parts) }));
  const pack = time(() => {
    for (const { columns, parts } of scored) packDecision(columns, parts);
  });
  const unpack = time(() => {
    for (const row of packed) unpackDecision(row);
  });
  const jsonBytes =
    scored.reduce(
      (sum, { parts }) =>
        sum +
        JSON.stringify(parts.features).length +
        JSON.stringify(parts.evidence).length +
        JSON.stringify(parts.answer).length +
        (parts.ruleInput ? JSON.stringify(parts.ruleInput).length : 0),
      0,
    ) / scored.length;
  const packedBytes =
    packed.reduce(
      (sum, r) => sum + r.features.length + (r.packed?.length ?? 0) + (r.packed_evidence?.length ?? 0),
      0,
    ) / packed.length;
  console.log(
    `${kind}: JSON parts ${jsonBytes.toFixed(0)} B → packed ${packedBytes.toFixed(0)} B; ` +
      `JSON.stringify ${stringify.toFixed(1)} µs, pack ${pack.toFixed(1)} µs (${(pack / stringify).toFixed(1)}×), ` +
      `unpack ${unpack.toFixed(1)} µs per decision`,
  );
}
await ctx.database.close();
