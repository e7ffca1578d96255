import { describe, expect, it } from 'vitest';
import type { RuleBudget } from './budget.ts';
import { buildRuleset, evaluateRuleset } from './ruleset.ts';
import { ruleRow, ruleVars, steppingClock } from './test-fixtures.ts';

const L = `[${Array.from({ length: 40 }, (_, i) => i + 1).join(',')}]`;
const HEAVY = `${L}.map(a, ${L}.map(b, ${L}.map(c, a + b + c))).size() > 0`;

function budget(over: Partial<RuleBudget> = {}): RuleBudget {
  return { timeMs: 25, stepsPerRule: 5_000, now: () => 0, ...over };
}

describe('rule time budget', () => {
  it('skips a rule past its step limit with a rule_timeout signal (score 0) and runs the next', () => {
    const rs = buildRuleset(
      [
        ruleRow({ name: 'heavy', expression: HEAVY, priority: 2 }),
        ruleRow({ name: 'cheap', expression: 'score > 10.0', priority: 1 }),
      ],
      [],
    );
    const out = evaluateRuleset(rs, ruleVars(), 'login', budget());
    expect(out.signals.map((s) => [s.rule, s.score])).toEqual([
      ['rule_timeout:heavy', 0],
      ['custom:cheap', 10],
    ]);
    expect(out.signals[0]?.description).toContain('limit of 5000 evaluation steps');
    expect(out.usage.map((u) => u.result)).toEqual(['timeout', 'matched']);
    expect(out.forcedAction).toBeNull();
  });

  it('does not let || or a quantifier swallow the exhaustion into a match', () => {
    const rs = buildRuleset(
      [
        ruleRow({ name: 'or_true', expression: `(${HEAVY}) || true`, action: 'block' }),
        ruleRow({
          name: 'exists',
          expression: `${L}.exists(x, ${L}.map(y, ${L}.map(z, x + y + z)).size() < 0) || true`,
        }),
      ],
      [],
    );
    const out = evaluateRuleset(rs, ruleVars(), 'login', budget());
    expect(out.signals.map((s) => s.rule)).toEqual(['rule_timeout:or_true', 'rule_timeout:exists']);
    expect(out.forcedAction).toBeNull();
  });

  it('skips the rules that come after the decision ran out of time (injected clock)', () => {
    // Each clock read advances 10 virtual ms: the budget of 25 ms lasts for two rule starts.
    const clock = steppingClock(10);
    const rs = buildRuleset(
      ['r1', 'r2', 'r3', 'r4'].map((name, i) => ruleRow({ name, expression: 'true', priority: 10 - i })),
      [],
    );
    const out = evaluateRuleset(rs, ruleVars(), 'login', budget({ now: clock.now }));
    expect(out.signals.map((s) => s.rule)).toEqual([
      'custom:r1',
      'custom:r2',
      'rule_timeout:r3',
      'rule_timeout:r4',
    ]);
    expect(out.signals[2]?.description).toContain('rule time budget of 25 ms was used up');
    expect(out.usage.filter((u) => u.result === 'timeout').map((u) => u.steps)).toEqual([0, 0]);
  });

  it('stops a rule in the middle of its evaluation when the deadline passes', () => {
    const clock = steppingClock(1);
    const rs = buildRuleset([ruleRow({ name: 'heavy', expression: HEAVY })], []);
    const out = evaluateRuleset(
      rs,
      ruleVars(),
      'login',
      budget({ timeMs: 3, stepsPerRule: 1_000_000, now: clock.now }),
    );
    expect(out.signals.map((s) => s.rule)).toEqual(['rule_timeout:heavy']);
    expect(out.usage[0]?.steps).toBeLessThan(2_000);
  });

  it('the ReDoS rule of issue 17 costs a handful of steps and matches nothing', () => {
    const rs = buildRuleset(
      [
        ruleRow({
          name: 'redos',
          expression: 'event.email != null && event.email.matches("^([a-z0-9]+)+@")',
        }),
      ],
      [],
    );
    const out = evaluateRuleset(rs, ruleVars({ email: `${'a'.repeat(30)}!` }), 'login', budget());
    expect(out.signals).toEqual([]);
    expect(out.usage).toEqual([{ rule: 'redos', steps: expect.any(Number), result: 'no_match' }]);
    expect(out.usage[0]?.steps).toBeLessThan(100);
  });
});
