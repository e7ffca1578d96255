import type { FamilyStats } from './stats.ts';

const pct = (v: number) => (Number.isNaN(v) ? '   -  ' : `${(100 * v).toFixed(1).padStart(5)}%`);
const pad = (s: string | number, n: number) => String(s).padEnd(n);
const lpad = (s: string | number, n: number) => String(s).padStart(n);

export const RECALL_TARGET = 0.95;
export const FP_TARGET = 0.01;

function row(s: FamilyStats): string {
  const human = s.family.label === 'human';
  const surface = (k: 'browser' | 'server') => {
    const t = s.surfaces[k];
    return t.events === 0 ? '    -  ' : pct(t.hits / t.events);
  };
  const mean = s.events === 0 ? '-' : (s.scoreSum / s.events).toFixed(1);
  const friction = human ? pct(s.events === 0 ? Number.NaN : s.friction / s.events) : '      ';
  const verdict = Number.isNaN(s.rate())
    ? '  '
    : human
      ? s.rate() <= FP_TARGET
        ? 'ok'
        : '!!'
      : s.rate() >= RECALL_TARGET
        ? 'ok'
        : '!!';
  return [
    pad(s.family.id, 30),
    pad(human ? 'human' : 'bot', 5),
    lpad(s.events, 6),
    lpad(s.hits, 6),
    `${pct(s.rate())} ${verdict}`,
    friction,
    lpad(mean, 5),
    surface('browser'),
    surface('server'),
    `  ${s.topSignals(4).join(', ')}`,
  ].join(' ');
}

const HEADER = [
  pad('family', 30),
  pad('kind', 5),
  lpad('events', 6),
  lpad('hits', 6),
  pad('rate', 9),
  pad('friction', 6),
  lpad('score', 5),
  pad('browser', 7),
  pad('server', 7),
  '  top signals (share of events)',
].join(' ');

function pooled(list: readonly FamilyStats[]): { events: number; hits: number; rate: number } {
  let events = 0;
  let hits = 0;
  for (const s of list) {
    events += s.events;
    hits += s.hits;
  }
  return { events, hits, rate: events === 0 ? Number.NaN : hits / events };
}

export function printReport(stats: readonly FamilyStats[], header: string): void {
  const out: string[] = [header, ''];
  out.push(
    'hits = bots caught (classification bot, or action block/challenge) / humans flagged (bot or block).',
  );
  out.push(
    'rate = recall for bots, false-positive rate for humans; friction = humans sent to review or challenge.',
  );
  out.push('browser/server = rate on /collect vs /verify events. Targets: recall >= 95%, human FP <= 1%.');
  for (const section of ['headline', 'tuning'] as const) {
    const rows = stats.filter((s) => s.family.section === section);
    if (rows.length === 0) continue;
    out.push('');
    out.push(
      section === 'headline'
        ? 'HEADLINE (held-out, synthetic bot movement)'
        : 'TUNING (replays of the engine tuning traces: in-sample, not a benchmark)',
    );
    out.push(HEADER);
    out.push('-'.repeat(HEADER.length + 40));
    for (const s of rows) out.push(row(s));
  }
  const errors = stats.filter((s) => s.errorCount > 0);
  if (errors.length > 0) {
    out.push('');
    out.push('REQUEST ERRORS (not scored):');
    for (const s of errors)
      out.push(`  ${s.family.id}: ${[...s.errors].map(([k, v]) => `${k} ×${v}`).join(', ')}`);
  }
  const head = stats.filter((s) => s.family.section === 'headline');
  const bots = pooled(head.filter((s) => s.family.label === 'bot'));
  const humans = pooled(head.filter((s) => s.family.label === 'human'));
  const missing = head
    .filter((s) => s.family.label === 'bot' && s.rate() < RECALL_TARGET)
    .map((s) => s.family.id);
  const flagged = head
    .filter((s) => s.family.label === 'human' && s.rate() > FP_TARGET)
    .map((s) => s.family.id);
  out.push('');
  out.push(
    `SUMMARY: bot recall ${pct(bots.rate).trim()} (${bots.hits}/${bots.events}, target >= 95%: ${bots.rate >= RECALL_TARGET ? 'met' : 'MISSED'})` +
      ` | human FP ${pct(humans.rate).trim()} (${humans.hits}/${humans.events}, target <= 1%: ${humans.rate <= FP_TARGET ? 'met' : 'MISSED'})` +
      ` | families below target: ${[...missing, ...flagged].join(', ') || 'none'}`,
  );
  console.log(out.join('\n'));
}
