import { parseArgs } from 'node:util';
import { chromiumAvailable } from '../../e2e/support/browser.ts';
import { startServer } from '../../e2e/support/server.ts';
import { CONDITIONS, Machine } from './device-conditions.ts';

/**
 * `npm run eval:device-id [-- --runs 3]`: the device-identity conditions (device-conditions.ts) in
 * real chromium against a fresh Warden, each repeated `runs` times, and what they come to:
 * - stability: same-machine visits that kept the machine's device id;
 * - separation: visits of simulated other machines whose id is neither the machine's nor another
 *   simulated machine's (each condition is one other machine);
 * - one id per condition: conditions whose repetitions all got the same id.
 */
const { values } = parseArgs({ options: { runs: { type: 'string', default: '3' } } });
const runs = Number(values.runs);
if (!Number.isInteger(runs) || runs < 1) throw new Error('--runs takes a whole number ≥ 1');
if (!chromiumAvailable()) process.exit(1);

const server = await startServer({ WARDEN_LOG_LEVEL: 'error' });
const machine = new Machine(`${server.baseUrl}/demo`);
try {
  const home = await machine.deviceId({ profile: 'home' });
  const ids = new Map<string, string[]>();
  for (let run = 0; run < runs; run++)
    for (const c of CONDITIONS) {
      const id = await machine.deviceId(c.visit);
      ids.set(c.name, [...(ids.get(c.name) ?? []), id]);
    }
  let kept = 0;
  let sameVisits = 0;
  let separated = 0;
  let otherVisits = 0;
  let steady = 0;
  console.log(`machine's device id: ${home}\n`);
  for (const c of CONDITIONS) {
    const got = ids.get(c.name) ?? [];
    if (new Set(got).size === 1) steady++;
    const others = CONDITIONS.filter((o) => !o.same && o.name !== c.name).flatMap(
      (o) => ids.get(o.name) ?? [],
    );
    const good = got.filter((id) =>
      c.same ? id === home : id !== home && id !== '' && !others.includes(id),
    );
    if (c.same) {
      kept += good.length;
      sameVisits += got.length;
    } else {
      separated += good.length;
      otherVisits += got.length;
    }
    const verdict = `${good.length}/${got.length} ${c.same ? 'kept' : 'separate'}`;
    console.log(
      `${c.same ? 'same ' : 'other'}  ${c.name.padEnd(56)} ${verdict.padEnd(14)} ${[...new Set(got)].join(' ')}`,
    );
  }
  const pct = (a: number, b: number) => `${((100 * a) / b).toFixed(1)} % (${a}/${b})`;
  console.log(`\nstability: ${pct(kept, sameVisits)}`);
  console.log(`separation: ${pct(separated, otherVisits)}`);
  console.log(`one id per condition: ${steady}/${CONDITIONS.length}`);
} finally {
  machine.close();
  await server.stop();
}
