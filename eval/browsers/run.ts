import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import { parseArgs } from 'node:util';
import { BOTD_VERSION } from '../../e2e/support/botd.ts';
import { CHROMIUM } from '../../e2e/support/browser.ts';
import { XDOTOOL, XVFB } from '../../e2e/support/desktop.ts';
import { type Display, startXvfbIn } from './desktop-input.ts';
import { dirList, heldOutSetups } from './held-out.ts';
import { evidenceTable, outcomeTable, summary } from './report.ts';
import { SETUPS, type Setup, selectSetups, withAimingData } from './setups.ts';
import { type Shop, startShop } from './shop.ts';
import { startWarden, type VisitOutcome, visit, type Warden } from './visit.ts';

/**
 * `npm run eval:browsers [-- --runs N] [-- --only patchright,xdotool-*] [-- --json out.json] [-- --shared-server]
 * [-- --people dir[,dir]] [-- --bots dir[,dir]] [-- --aiming <path-to>/mousetrap-kh2017/raw_data.csv.gz]`:
 * real chromium through a shop page that integrates the SDK as the docs say, against a real
 * Warden server on loopback, for every adversary setup and a replayed person. Every run gets a
 * fresh server (fresh data directory), so every run is a first visit of a new device, as a
 * held-out attacker's would be: no `device_recent_risk` or velocity carried from the setup's
 * earlier runs (`--shared-server` keeps one server per setup, to measure repeat visits).
 * `--people` / `--bots` add a setup per directory of DELBOT-format recordings (held-out.ts).
 * `--aiming` gives `person-aiming` its data (held-out people of the KH2017 study aiming at targets,
 * their reaches carried onto the form's legs: eval/aiming/script.ts); without it that setup is
 * skipped and the run says so. Prints the /verify, /collect and BotD outcomes per setup and what each setup left in
 * the page. A report: exit code 0 whatever the numbers, 1 when nothing could run.
 */
const { values } = parseArgs({
  options: {
    runs: { type: 'string', default: '3' },
    only: { type: 'string', default: '' },
    json: { type: 'string' },
    'visit-timeout': { type: 'string', default: '90000' },
    'shared-server': { type: 'boolean', default: false },
    people: { type: 'string', default: '' },
    bots: { type: 'string', default: '' },
    aiming: { type: 'string' },
  },
});
const runs = Math.max(1, Number(values.runs) || 3);
let heldOut: Setup[];
try {
  heldOut = heldOutSetups(dirList(values.people), dirList(values.bots));
} catch (err) {
  console.error(`eval:browsers: ${err instanceof Error ? err.message : String(err)}`);
  process.exit(1);
}
if (values.aiming && !fs.existsSync(values.aiming)) {
  console.error(`eval:browsers: --aiming ${values.aiming}: no such file`);
  process.exit(1);
}
const selected = selectSetups(dirList(values.only), withAimingData([...SETUPS, ...heldOut], values.aiming));
for (const s of selected.filter((x) => x.kind === 'desktop' && x.skipped))
  console.info(`skipped ${s.id}: ${s.kind === 'desktop' ? s.skipped : ''}`);
const setups = selected.filter((s) => !(s.kind === 'desktop' && s.skipped));
const missing = [CHROMIUM, XVFB, XDOTOOL].filter((p) => !fs.existsSync(p));
if (missing.length > 0) {
  console.error(`eval:browsers needs ${missing.join(', ')} (apt-get install -y chromium xvfb xdotool).`);
  process.exit(1);
}
if (setups.length === 0) {
  console.error(`no setup matches --only ${values.only}`);
  process.exit(1);
}

const PORTS = Array.from({ length: 100 }, (_, i) => 20900 + i);
const DISPLAYS = Array.from({ length: 10 }, (_, i) => 90 + i);

let shop: Shop | undefined;
let display: Display | undefined;
let warden: Warden | undefined;
let stopping = false;
async function cleanup() {
  await warden?.server.stop().catch(() => undefined);
  await shop?.stop().catch(() => undefined);
  await display?.stop().catch(() => undefined);
}
for (const sig of ['SIGINT', 'SIGTERM'] as const) {
  process.on(sig, () => {
    if (stopping) return;
    stopping = true;
    console.error(`\n${sig}: stopping browsers, Xvfb and servers…`);
    void cleanup().finally(() => process.exit(130));
  });
}

const outcomes: VisitOutcome[] = [];
const started = Date.now();
try {
  shop = await startShop(PORTS);
  display = await startXvfbIn(DISPLAYS);
  console.info(
    `eval:browsers — ${setups.length} setups × ${runs} runs, ${CHROMIUM}, BotD ${BOTD_VERSION}, shop ${shop.origin}, Xvfb ${display.display}`,
  );
  const freshPerRun = !values['shared-server'];
  for (const setup of setups) {
    if (stopping) break;
    try {
      for (let run = 0; run < runs && !stopping; run++) {
        if (!warden || freshPerRun) {
          await warden?.server.stop().catch(() => undefined);
          warden = await startWarden(shop);
        }
        const o = await visit(setup, run, {
          shop,
          warden,
          display,
          timeoutMs: Number(values['visit-timeout']),
        });
        outcomes.push(o);
        const v = o.verify;
        console.info(
          `  ${setup.id} #${run}: /verify ${v ? `${v.action} ${v.risk_score} (${v.signals.map((s) => `${s.rule} ${s.score}`).join(', ')})` : 'none'}` +
            ` · /collect ${o.collect ? `${o.collect.classification} ${o.collect.riskScore}` : 'none'}` +
            ` · BotD ${o.botd ? (o.botd.error ? 'error' : o.botd.bot ? `bot (${o.botd.botKind})` : 'not bot') : 'none'}` +
            ` · ${(o.ms / 1000).toFixed(1)} s${o.error ? ` · ERROR ${o.error}` : ''}`,
        );
      }
    } finally {
      await warden?.server.stop().catch(() => undefined);
      warden = undefined;
    }
  }
} catch (err) {
  console.error(`eval:browsers failed: ${err instanceof Error ? err.stack : String(err)}`);
} finally {
  await cleanup();
}

const version = (() => {
  try {
    return execFileSync(CHROMIUM, ['--version'], {
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'ignore'],
    }).trim();
  } catch {
    return '';
  }
})();
console.info(
  `\nWarden vs BotD ${BOTD_VERSION}, chromium ${version || '(version unknown)'}, ${runs} run(s) per setup (${values['shared-server'] ? 'one server per setup: later runs are repeat visits' : 'a fresh server per run: every run a first visit'}), ${new Date().toISOString().slice(0, 16)}Z, ${((Date.now() - started) / 1000).toFixed(0)} s\n`,
);
console.info(outcomeTable(setups, outcomes));
console.info(`\n${summary(setups, outcomes)}\n`);
console.info('What each setup left in the page (probe.ts, medians over runs):');
console.info(evidenceTable(setups, outcomes));
if (values.json) {
  fs.writeFileSync(values.json, JSON.stringify(outcomes, null, 2));
  console.info(`\nevery outcome (with probe reports and the browser decisions' evidence): ${values.json}`);
}
process.exit(outcomes.some((o) => o.verify) ? 0 : 1);
