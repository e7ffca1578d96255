import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { AppContext } from '../context.ts';
import { ruleBudget } from '../rules/budget.ts';
import { buildRuleset } from '../rules/ruleset.ts';
import { ruleRow } from '../rules/test-fixtures.ts';
import { engineDeps, localStateDeps } from '../services.ts';
import type { HotState } from '../state/hot-state.ts';
import { createTestContext } from '../testing/context.ts';
import { decide, type ObservedEvent } from './decide-event.ts';
import { IdentityClusters } from './identity.ts';
import { Observer } from './observe.ts';
import { DEFAULT_FAMILIES, hardRules } from './ruleset.ts';
import { LocalSharedState } from './shared-state.ts';
import type { SignalFamily } from './signals/types.ts';
import { FINGERPRINT, makeInput } from './test-fixtures.ts';

let ctx: AppContext;
beforeEach(async () => {
  ctx = await createTestContext({ now: () => 1_700_000_000_000 });
});
afterEach(async () => {
  vi.restoreAllMocks();
  await ctx.hotState.close();
  await ctx.database.close();
});

/** A hot state whose every use throws: decide must never reach it. */
function throwingHotState(): HotState {
  return new Proxy({} as HotState, {
    get(_target, name) {
      throw new Error(`decide touched hot state (${String(name)})`);
    },
  });
}

function deepFreeze<T>(value: T): T {
  if (value && typeof value === 'object' && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const v of Object.values(value)) deepFreeze(v);
  }
  return value;
}

const rules = () => ({
  families: DEFAULT_FAMILIES,
  hard: hardRules(DEFAULT_FAMILIES),
  custom: buildRuleset(
    [
      ruleRow({ name: 'fast_account', expression: 'features.history.account_1h >= 2.0', score: 30 }),
      ruleRow({ name: 'login_path', expression: 'event.request_url == "/login"', action: 'block' }),
      ruleRow({ name: 'watch', mode: 'shadow', expression: 'event.type == "login"' }),
    ],
    [],
  ),
  // A fixed clock: the only clock decide may read is its input's.
  budget: ruleBudget(25, () => 0),
});

describe('decide (the pure engine)', () => {
  it('gives the same decision for the same input, without hot state, the clock, or changing its input', async () => {
    const observer = new Observer(
      new LocalSharedState(localStateDeps(ctx), new IdentityClusters(ctx)),
      engineDeps(ctx),
    );
    const input = makeInput(ctx, {
      fingerprint: FINGERPRINT,
      environment: { webdriver: true },
      context: { request_url: '/login', email: 'a@example.com' },
    });
    await observer.observe(input);
    const { features, event, ip } = await observer.observe(input);
    const observed: ObservedEvent = deepFreeze(structuredClone({ features, event, ip }));
    const before = JSON.stringify(observed);

    // What observe hands over is plain data: it survives a structured clone (a thread boundary).
    const hotState = ctx.hotState;
    (ctx as { hotState: HotState }).hotState = throwingHotState();
    vi.spyOn(Date, 'now').mockImplementation(() => {
      throw new Error('decide read the wall clock');
    });
    vi.spyOn(performance, 'now').mockImplementation(() => {
      throw new Error('decide read the monotonic clock');
    });
    const first = decide(observed, rules());
    const second = decide(observed, rules());
    vi.restoreAllMocks();
    (ctx as { hotState: HotState }).hotState = hotState;

    expect(JSON.stringify(observed)).toBe(before);
    expect(second).toEqual(first);
    expect(first.failures).toEqual([]);
    expect(first.decision.custom.matched).toEqual(['fast_account', 'login_path']);
    expect(first.decision.custom.shadow.map((s) => s.rule)).toEqual(['watch']);
    expect(first.decision.action).toBe('block');
    expect(first.ruleInput.hardAutomation).toBe(true);
    // The recorded features carry the custom rule outcome; the observed ones do not.
    expect(first.features.custom_rules).toEqual(first.decision.custom);
    expect((observed.features as unknown as Record<string, unknown>).custom_rules).toBeUndefined();
  });

  it('reports a signal family that throws instead of logging it (fails open)', () => {
    const observed: ObservedEvent = {
      features: { event_type: 'login', device_id: '', token_id: '' } as ObservedEvent['features'],
      event: {},
      ip: '',
    };
    const broken = {
      name: 'broken',
      rules: {},
      evaluate: () => {
        throw new Error('boom');
      },
    } as unknown as SignalFamily;
    const { decision, failures } = decide(observed, {
      families: [broken],
      hard: new Set(),
      custom: buildRuleset([], []),
      budget: ruleBudget(25, () => 0),
    });
    expect(failures.map((f) => f.family)).toEqual(['broken']);
    expect(decision).toMatchObject({ risk_score: 0, action: 'allow' });
  });
});
