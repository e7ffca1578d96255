import { formatRate } from '../lib/wilson.ts';
import type { Setup } from './setups.ts';
import type { VisitOutcome } from './visit.ts';

/** Counts of `values` over `keys`, as `a/b/c`. */
function counts(values: Array<string | undefined>, keys: readonly string[]): string {
  return keys.map((k) => values.filter((v) => v === k).length).join('/');
}

function topRules(
  outcomes: VisitOutcome[],
  pick: (o: VisitOutcome) => Array<{ rule: string }> | undefined,
): string {
  const n = new Map<string, number>();
  for (const o of outcomes) for (const s of pick(o) ?? []) n.set(s.rule, (n.get(s.rule) ?? 0) + 1);
  return [...n.entries()]
    .sort((a, b) => b[1] - a[1])
    .slice(0, 4)
    .map(([r, c]) => `${r}×${c}`)
    .join(' ');
}

const pad = (s: string, n: number) => (s.length > n ? `${s.slice(0, n - 1)}…` : s.padEnd(n));

/** The per-setup table: /verify actions, /collect classifications, BotD, errors, top /verify rules. */
export function outcomeTable(setups: Setup[], outcomes: VisitOutcome[]): string {
  const head = `${pad('setup', 34)} ${pad('runs', 4)} ${pad('/verify a/r/c/b', 16)} ${pad('/collect h/s/b', 15)} ${pad('BotD bot/not/err', 17)} ${pad('err', 3)} top /verify signals`;
  const rows = setups.map((s) => {
    const os = outcomes.filter((o) => o.setup === s.id);
    const botd = `${os.filter((o) => o.botd?.bot && !o.botd.error).length}/${os.filter((o) => o.botd && !o.botd.bot && !o.botd.error).length}/${os.filter((o) => !o.botd || o.botd.error).length}`;
    return [
      pad(s.id, 34),
      pad(String(os.length), 4),
      pad(
        counts(
          os.map((o) => o.verify?.action),
          ['allow', 'review', 'challenge', 'block'],
        ),
        16,
      ),
      pad(
        counts(
          os.map((o) => o.collect?.classification),
          ['human', 'suspicious', 'bot'],
        ),
        15,
      ),
      pad(botd, 17),
      pad(String(os.filter((o) => o.error).length), 3),
      topRules(os, (o) => o.verify?.signals),
    ].join(' ');
  });
  return [head, '-'.repeat(head.length + 10), ...rows].join('\n');
}

/** Headline shares: automated runs with a non-allow at /verify, people with friction or a bot verdict. */
export function summary(setups: Setup[], outcomes: VisitOutcome[]): string {
  const isPerson = (o: VisitOutcome) => setups.find((s) => s.id === o.setup)?.person === true;
  const decided = outcomes.filter((o) => o.verify);
  const bots = decided.filter((o) => !isPerson(o));
  const people = decided.filter(isPerson);
  const nonAllow = bots.filter((o) => o.verify?.action !== 'allow').length;
  const botdBots = outcomes.filter((o) => !isPerson(o) && o.botd?.bot).length;
  const friction = people.filter((o) => ['review', 'challenge'].includes(o.verify?.action ?? '')).length;
  const blocked = people.filter(
    (o) =>
      o.verify?.action === 'block' ||
      o.verify?.classification === 'bot' ||
      o.collect?.classification === 'bot',
  ).length;
  const pct = (a: number, b: number) => (b === 0 ? 'n/a' : `${((100 * a) / b).toFixed(0)} %`);
  const failed = outcomes.filter((o) => !o.verify).length;
  const perPerson = setups
    .filter((s) => s.person)
    .map((s) => {
      const os = people.filter((o) => o.setup === s.id);
      const f = os.filter((o) => ['review', 'challenge'].includes(o.verify?.action ?? '')).length;
      const b = os.filter(
        (o) =>
          o.verify?.action === 'block' ||
          o.verify?.classification === 'bot' ||
          o.collect?.classification === 'bot',
      ).length;
      return `  ${s.id}: review/challenge ${formatRate(f, os.length)}, block or bot ${formatRate(b, os.length)}`;
    });
  return [
    `automated runs with a non-allow action at /verify: ${nonAllow}/${bots.length} (${pct(nonAllow, bots.length)}); BotD said bot in ${botdBots}/${outcomes.filter((o) => !isPerson(o)).length}`,
    `people with friction (review/challenge) at /verify: ${friction}/${people.length} (${pct(friction, people.length)}); with block or a bot classification: ${blocked}`,
    `runs without a /verify decision (harness or browser failure): ${failed}`,
    `automated runs non-allow at /verify, Wilson 95 %: ${formatRate(nonAllow, bots.length)}`,
    ...(perPerson.length > 0 ? ['people per setup at /verify, Wilson 95 %:', ...perPerson] : []),
  ].join('\n');
}

const med = (xs: Array<number | null | undefined>): string => {
  const v = xs.filter((x): x is number => typeof x === 'number').sort((a, b) => a - b);
  return v.length ? String(v[Math.floor(v.length / 2)]) : '-';
};

/**
 * What each setup leaves in the page (the probe's raw measurements, medians over runs): the
 * evidence to compare with a person's.
 */
export function evidenceTable(setups: Setup[], outcomes: VisitOutcome[]): string {
  const head = [
    pad('setup', 34),
    pad('moves', 5),
    pad('coal>1', 6),
    pad('offgrid', 7),
    pad('mv ms', 5),
    pad('lat ms', 6),
    pad('scr-cli', 9),
    pad('keys', 4),
    pad('inNoKey', 7),
    pad('dwell', 5),
    pad('clk mv', 6),
    pad('clk dx,dy', 11),
    pad('press', 5),
    pad('focus', 5),
    pad('submit s', 8),
    'window/worker',
  ].join(' ');
  const rows = setups.map((s) => {
    const ps = outcomes.filter((o) => o.setup === s.id && o.probe).map((o) => o.probe!);
    if (ps.length === 0) return `${pad(s.id, 34)} (no probe report)`;
    const clicks = ps.flatMap((p) => p.clicks);
    const g = ps[0]!.geometry;
    const mism = [...new Set(ps.flatMap((p) => p.workerMismatches.map((m) => m.split(':')[0])))].join(',');
    return [
      pad(s.id, 34),
      pad(med(ps.map((p) => p.moves.count)), 5),
      pad(med(ps.map((p) => p.moves.coalescedMulti)), 6),
      pad(
        med(
          ps.map((p) =>
            p.moves.offGridJudged ? Math.round((100 * p.moves.offGrid) / p.moves.offGridJudged) : null,
          ),
        ),
        7,
      ),
      pad(med(ps.map((p) => p.moves.intervalMedianMs)), 5),
      pad(med(ps.map((p) => p.moves.latencyMedianMs)), 6),
      pad([...new Set(ps.flatMap((p) => p.moves.screenOffsets))].slice(0, 2).join(' ') || '-', 9),
      pad(med(ps.map((p) => p.keys.keydown)), 4),
      pad(med(ps.map((p) => p.keys.inputWithoutKey)), 7),
      pad(med(ps.map((p) => p.keys.dwellMedianMs)), 5),
      pad(med(clicks.map((c) => c.movesBefore)), 6),
      pad(`${med(clicks.map((c) => Math.abs(c.dx)))},${med(clicks.map((c) => Math.abs(c.dy)))}`, 11),
      pad(med(clicks.map((c) => c.pressure)), 5),
      pad(`${ps.filter((p) => p.focus.atSubmit).length}/${ps.length}`, 5),
      pad(med(ps.map((p) => Math.round(p.timing.submitMs / 100) / 10)), 8),
      `${g.outerWidth - g.innerWidth}x${g.outerHeight - g.innerHeight} @${g.screenX},${g.screenY} scr ${g.screenWidth}x${g.screenHeight} avail ${g.availWidth}x${g.availHeight}${mism ? ` worker≠ ${mism}` : ''}`,
    ].join(' ');
  });
  const legend =
    'moves: mousemove events; coal>1: moves with >1 coalesced event; offgrid: % of mouse moves off the device-pixel grid; mv ms: median interval; lat ms: median event.timeStamp→handler;\n' +
    'scr-cli: screenX−clientX,screenY−clientY; keys: keydowns; inNoKey: input events with no keydown in 100 ms; dwell: key hold ms;\n' +
    'clk mv: moves in the 1 s before a press; clk dx,dy: |press − target centre| px; press: pointer pressure; focus: document.hasFocus() at submit;\n' +
    'submit s: load → submit; window: outer−inner size, window position, screen and available screen, worker/page mismatches.';
  return [head, '-'.repeat(head.length + 10), ...rows, '', legend].join('\n');
}
