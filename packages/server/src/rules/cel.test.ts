import { describe, expect, it } from 'vitest';
import { RuleMeter } from './budget.ts';
import { compileExpression } from './cel.ts';
import { ruleVars } from './test-fixtures.ts';

const meter = () => new RuleMeter(50_000, Number.POSITIVE_INFINITY, () => 0);

function run(expression: string, event: Record<string, unknown> = {}): { value: unknown; steps: number } {
  const compiled = compileExpression(expression);
  if (!compiled.ok) throw new Error(compiled.details[0]?.message);
  const m = meter();
  return { value: compiled.run(ruleVars(event), m, null), steps: m.used };
}

describe('CEL matches() on RE2', () => {
  it('runs the catastrophic-backtracking rule of issue 17 in linear time', () => {
    const rule = 'event.email != null && event.email.matches("^([a-z0-9]+)+@")';
    // 30 a's and "!" took 21 s on JavaScript's backtracking RegExp.
    const hostile = run(rule, { email: `${'a'.repeat(30)}!` });
    expect(hostile.value).toBe(false);
    expect(hostile.steps).toBeLessThan(100);
    // The cost is charged by input length: 10,000 a's still fit the per-rule step limit.
    const long = run(rule, { email: `${'a'.repeat(10_000)}!` });
    expect(long.value).toBe(false);
    expect(long.steps).toBeLessThan(50_000);
    expect(run(rule, { email: 'abc@example.com' }).value).toBe(true);
  });

  it('searches (unanchored) like CEL, with RE2 syntax', () => {
    expect(run('"abc".matches("b")').value).toBe(true);
    expect(run('"abc".matches("^b")').value).toBe(false);
    // Inline flags are RE2 syntax that JavaScript's RegExp refuses: proof the engine is RE2.
    expect(run('"ABC".matches("(?i)^abc$")').value).toBe(true);
    expect(run('[event.email].exists(e, e.matches("(?i)EXAMPLE\\\\.com$"))').value).toBe(true);
  });

  it('refuses at compile time a pattern RE2 does not support, saying why', () => {
    for (const pattern of ['(a)\\\\1', '(?=x)y', '(?<!x)y', '[a-']) {
      const compiled = compileExpression(`event.email.matches("${pattern}")`);
      expect(compiled.ok, pattern).toBe(false);
      if (!compiled.ok) {
        expect(compiled.details[0]?.path).toBe('body.expression');
        expect(compiled.details[0]?.message).toMatch(/^unsupported regular expression .*RE2 syntax/);
      }
    }
    // Inside a comprehension too: every .matches() call is taken over at parse time.
    expect(compileExpression('[event.email].all(e, e.matches("(?=a)"))').ok).toBe(false);
  });

  it('checks types: a non-string receiver or pattern does not compile', () => {
    expect(compileExpression('1.matches("a")').ok).toBe(false);
    expect(compileExpression('event.email.matches(1)').ok).toBe(false);
  });

  it('compiles a pattern from the event at run time, and an unsupported one fails the evaluation', () => {
    expect(run('event.email.matches(event.promo_code)', { promo_code: '^b@' }).value).toBe(false);
    expect(run('event.email.matches(event.promo_code)', { promo_code: 'example' }).value).toBe(true);
    expect(() => run('event.email.matches(event.promo_code)', { promo_code: '(?=a)' })).toThrow(
      /unsupported regular expression/,
    );
    expect(() => run('event.email.matches("a")', { email: null })).toThrow(/matches\(\) needs a string/);
  });

  it('meters every node: a nested comprehension is stopped at the step limit', () => {
    const l = `[${Array.from({ length: 40 }, (_, i) => i + 1).join(',')}]`;
    const compiled = compileExpression(`${l}.map(a, ${l}.map(b, ${l}.map(c, a + b + c))).size() > 0`);
    if (!compiled.ok) throw new Error(compiled.details[0]?.message);
    const m = new RuleMeter(5_000, Number.POSITIVE_INFINITY, () => 0);
    expect(() => compiled.run(ruleVars(), m, null)).toThrow(/step limit/);
    expect(m.exhausted?.reason).toBe('steps');
    expect(m.used).toBeGreaterThan(5_000);
    expect(m.used).toBeLessThan(5_100);
  });
});
