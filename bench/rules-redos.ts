/**
 * What a catastrophic-backtracking rule costs now that `matches` runs on RE2 (issue 17):
 * `node --import tsx bench/rules-redos.ts [n]` evaluates the rule
 * `event.email != null && event.email.matches("^([a-z0-9]+)+@")` against hostile e-mails
 * ("a" × len + "!": 21 s for len 30 on a backtracking engine) and prints the median and p99
 * microseconds per decision's rule evaluation, and the steps charged to the rule's budget.
 */
import { buildRuleset, evaluateRuleset } from '../packages/server/src/rules/ruleset.ts';
import { ruleRow, ruleVars } from '../packages/server/src/rules/test-fixtures.ts';

const n = Number(process.argv[2] ?? 5_000);
const redos = buildRuleset(
  [ruleRow({ name: 'redos', expression: 'event.email != null && event.email.matches("^([a-z0-9]+)+@")' })],
  [],
);
const classic = buildRuleset(
  [
    ruleRow({
      name: 'classic',
      expression: 'event.email != null && event.email.matches("^(\\\\w+\\\\s?)*$")',
    }),
  ],
  [],
);
const plain = buildRuleset(
  [ruleRow({ name: 'plain', expression: 'event.email != null && event.email.endsWith("@x")' })],
  [],
);

function measure(rs: typeof redos, email: string) {
  const vars = ruleVars({ email });
  const times: number[] = [];
  let steps = 0;
  for (let i = 0; i < n; i++) {
    const t = performance.now();
    const out = evaluateRuleset(rs, vars, 'login');
    times.push((performance.now() - t) * 1000);
    steps = out.usage[0]?.steps ?? 0;
  }
  times.sort((a, b) => a - b);
  return { p50: times[Math.floor(n / 2)]!.toFixed(1), p99: times[Math.floor(n * 0.99)]!.toFixed(1), steps };
}

for (const len of [24, 30, 1_000, 10_000]) {
  const email = `${'a'.repeat(len)}!`;
  const r = measure(redos, email);
  const c = measure(classic, email);
  const p = measure(plain, email);
  console.log(
    `len ${String(len).padStart(6)}: ^([a-z0-9]+)+@ p50 ${r.p50} µs p99 ${r.p99} µs (${r.steps} steps) | ^(\\w+\\s?)*$ p50 ${c.p50} µs p99 ${c.p99} µs (${c.steps} steps) | endsWith p50 ${p.p50} µs`,
  );
}
