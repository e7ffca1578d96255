import { type Device, humanDesktop } from '../lib/devices.ts';
import { fittingTrace, type Pt, placeTrace } from '../lib/geometry.ts';
import { formLayout } from '../lib/layout.ts';
import { pickLocale } from '../lib/locales.ts';
import { residentialIp } from '../lib/network.ts';
import { BrowserPage } from '../lib/page.ts';
import type { Rng } from '../lib/rng.ts';
import type { Trace } from '../lib/traces.ts';
import { type BuildEnv, DAY, type Scenario, type Step, sized } from '../lib/types.ts';

/**
 * The engine's own tuning traces (DELBOT pynput and pyHM bots) replayed as the mouse of an
 * otherwise spotless browser (no automation tells, token valid, residential address), so that
 * only behaviour can catch them. In-sample for the engine: a sanity check, not a benchmark.
 */
function form(rng: Rng, device: Device, traces: readonly Trace[], page: BrowserPage): number {
  const { inputs, submit } = formLayout(device.viewport, 2);
  let at: Pt = { x: device.viewport.w * 0.5, y: device.viewport.h * 0.8 };
  let t = rng.uniform(800, 2000);
  for (const box of [...inputs, submit]) {
    const to = { x: box.x + box.w / 2, y: box.y + box.h / 2 };
    const path = placeTrace(fittingTrace(rng, traces, at, to), at, to, t, device.viewport);
    page.rec.move(path);
    t = (path[path.length - 1]?.[0] ?? t) + rng.uniform(50, 150);
    page.rec.click(t, to.x, to.y);
    at = to;
    t += rng.uniform(300, 1500);
  }
  return t;
}

function tuning(id: string, title: string, pick: (env: BuildEnv) => readonly Trace[]): Scenario {
  return {
    family: { id, title, label: 'bot', section: 'tuning' },
    build(env) {
      const traces = pick(env);
      if (traces.length === 0) return [];
      const steps: Step[] = [];
      const { rng } = env;
      for (let i = 0; i < sized(env, 40); i++) {
        const locale = pickLocale(rng);
        const device = humanDesktop(rng, locale);
        const page = new BrowserPage(
          device,
          residentialIp(rng, locale.region),
          env.t0 + rng.uniform(0, env.days * DAY - DAY),
          rng,
        );
        const t = form(rng, device, traces, page);
        const ctx = { event_type: 'login' as const, account_id: `${id}_${rng.hex(8)}` };
        steps.push(page.register(t), page.collect(t, ctx));
      }
      return steps;
    },
  };
}

export const tuningPynput = tuning('tuning_pynput', 'pynput traces', (env) => env.traces.pynput);
export const tuningPyhm = tuning('tuning_pyhm', 'pyHM traces', (env) => env.traces.pyhm);
export const tuningHuman = {
  ...tuning('tuning_human_traces', 'human traces', (env) => env.traces.human),
  family: { id: 'tuning_human_traces', title: 'DELBOT human traces', label: 'human', section: 'tuning' },
} satisfies Scenario;
