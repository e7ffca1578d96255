import fs from 'node:fs';
import type { VisitOutcome } from './visit.ts';

/**
 * `node --import tsx eval/browsers/recorded-pages.ts <label> <eval:browsers --json dump>…`: the
 * pages an `eval:browsers` run recorded, rebuilt from the probe's raw pointer trace as the SDK
 * records them, for the scoring tests' fixtures (packages/server/src/scoring/signals/fixtures/).
 * Two clocks: `handler` — `performance.now()` in the pointermove handler, the dispatched event
 * only (the SDK before event times), and `event` — every coalesced event at its own `timeStamp`
 * (packages/browser/src/behavior/move-samples.ts; needs a probe that recorded coalesced events).
 * Either way one sample per 16 ms or more. Presses: pointerdown at the same clock.
 */
export type Clock = 'handler' | 'event';
type Sample = [number, number, number];

const MOVE_INTERVAL_MS = 16;
const r1 = (v: number) => Math.round(v * 10) / 10;

export function sdkPage(o: VisitOutcome, clock: Clock) {
  const trace = o.probe?.trace;
  if (!trace) return undefined;
  if (clock === 'event' && !trace.coalesced) return undefined;
  const mouse: Sample[] = [];
  const push = (t: number, x: number, y: number) => {
    const last = mouse[mouse.length - 1];
    if (!last || t - last[0] >= MOVE_INTERVAL_MS) mouse.push([r1(t), r1(x), r1(y)]);
  };
  for (const [i, m] of trace.moves.entries()) {
    const c = clock === 'event' ? (trace.coalesced?.[i] ?? []) : [];
    if (c.length === 0) push(clock === 'event' ? m[5]! : m[0]!, m[1]!, m[2]!);
    for (let k = 0; k + 2 < c.length; k += 3) push(c[k]!, c[k + 1]!, c[k + 2]!);
  }
  const clicks = trace.downs.map((d) => [clock === 'event' ? (d[3] ?? d[0]!) : d[0]!, d[1]!, d[2]!, 0]);
  const behavior = o.collect?.evidence?.behavior as { pointer_steps?: unknown } | undefined;
  return { mouse, clicks, pointer_steps: behavior?.pointer_steps ?? null };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const [label, ...files] = process.argv.slice(2);
  const sessions = [];
  for (const file of files) {
    const outcomes = JSON.parse(fs.readFileSync(file, 'utf8')) as VisitOutcome[];
    for (const o of outcomes) {
      const clock: Clock = o.probe?.trace?.coalesced ? 'event' : 'handler';
      const page = sdkPage(o, clock);
      if (!page) continue;
      sessions.push({
        setup: o.setup,
        run: o.run,
        load: label,
        clock,
        verify: o.verify ? `${o.verify.action} ${o.verify.risk_score}` : null,
        ...page,
      });
    }
  }
  process.stdout.write(`${JSON.stringify(sessions)}\n`);
}
