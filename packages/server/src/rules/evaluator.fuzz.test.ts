import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { RuleBudget } from './budget.ts';
import { buildRuleset, evaluateRuleset } from './ruleset.ts';
import { ruleRow, ruleVars, steppingClock } from './test-fixtures.ts';

/**
 * Fuzz of the custom-rule evaluator: generated CEL expressions (most of them well typed, some not)
 * over generated events, hostile regular expressions and oversized strings included. Whatever the
 * rule, evaluation must not throw, and its bookkeeping must show it ended within its budget.
 */
const REGEXES = [
  '^([a-z0-9]+)+@',
  '(a|aa)*b',
  '(x+x+)+y',
  '.*.*.*=.*',
  '^(\\\\w+\\\\s?)*$',
  '(?i)mailinator',
  '[0-9]{3,}',
  '(a)\\\\1',
  '(?=a)',
  '',
];

const strLeaf = fc.constantFrom(
  'event.email',
  'event.user_agent',
  'event.account_id',
  'event.promo_code',
  'emailDomain(event.email)',
  '"aaaa!"',
  '""',
);
const numLeaf = fc.constantFrom('score', 'features.ip_1m', '1.0', '30.0', 'double(size(event.email))');
const listLeaf = fc.constantFrom('[1, 2, 3]', 'event.user_agent.split("")', '["a", "b"]', '[]');

const { bool } = fc.letrec<{ str: string; num: string; list: string; bool: string }>((tie) => ({
  str: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    strLeaf,
    fc.tuple(tie('str'), tie('str')).map(([a, b]) => `${a} + ${b}`),
  ),
  num: fc.oneof(
    { depthSize: 'small' },
    numLeaf,
    fc.tuple(tie('num'), tie('num'), fc.constantFrom('+', '-', '*')).map(([a, b, op]) => `(${a} ${op} ${b})`),
  ),
  list: fc.oneof(
    { depthSize: 'small' },
    listLeaf,
    fc.tuple(tie('list'), tie('list')).map(([a, b]) => `${a}.map(x, ${b})`),
  ),
  bool: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    fc.constantFrom('true', 'false', 'inList("bad", event.email)', 'event.email == null'),
    fc.tuple(tie('str'), fc.constantFrom(...REGEXES)).map(([s, re]) => `${s}.matches("${re}")`),
    fc.tuple(tie('str'), tie('str')).map(([a, b]) => `${a}.contains(${b})`),
    fc.tuple(tie('num'), tie('num'), fc.constantFrom('<', '>', '==')).map(([a, b, op]) => `${a} ${op} ${b}`),
    fc.tuple(tie('bool'), tie('bool'), fc.constantFrom('&&', '||')).map(([a, b, op]) => `(${a} ${op} ${b})`),
    tie('bool').map((b) => `!(${b})`),
    fc.tuple(tie('list'), tie('bool')).map(([l, b]) => `${l}.exists(y, ${b})`),
    fc.tuple(tie('list'), tie('list')).map(([a, b]) => `size(${a}.map(x, ${b})) > 2`),
  ),
}));

const text = fc.oneof(
  fc.string({ maxLength: 40 }),
  fc.integer({ min: 1, max: 20_000 }).map((n) => `${'a'.repeat(n)}!`),
  fc.constant(null),
);

const STEPS = 2_000;

describe('custom rule evaluator fuzz', () => {
  it('never throws and every evaluation ends within its budget', () => {
    fc.assert(
      fc.property(
        fc.array(bool, { minLength: 1, maxLength: 4 }),
        fc.record({ email: text, user_agent: text, promo_code: text }),
        (expressions, event) => {
          const clock = steppingClock(0.01);
          const budget: RuleBudget = { timeMs: 5, stepsPerRule: STEPS, now: clock.now };
          const rs = buildRuleset(
            expressions.map((expression, i) => ruleRow({ name: `r${i}`, expression, priority: 10 - i })),
            [],
          );
          const out = evaluateRuleset(rs, ruleVars(event), 'login', budget);
          // Every enabled rule was accounted for exactly once, in order.
          expect(out.usage.map((u) => u.rule)).toEqual(expressions.map((_, i) => `r${i}`));
          for (const u of out.usage) {
            // An evaluation that ran to its end stayed within the step limit…
            if (u.result !== 'timeout') expect(u.steps).toBeLessThanOrEqual(STEPS);
            // …and one that did not is reported as a rule_timeout signal that changes no score.
            else
              expect(out.signals).toContainEqual(
                expect.objectContaining({ rule: `rule_timeout:${u.rule}`, score: 0 }),
              );
          }
          const stopped = out.signals.filter((s) => /^rule_(timeout|error):/.test(s.rule));
          expect(stopped.every((s) => s.score === 0)).toBe(true);
        },
      ),
      { seed: 17, numRuns: 400 },
    );
  });
});
