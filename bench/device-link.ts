/**
 * CPU time of naming a device at registration (POST /fingerprint), in process on the in-memory hot
 * state: the exact stable hash alone (what registration did before device-link.ts) against
 * linkDevice (the hash plus three hot-state reads and, when something changed, up to three writes).
 * Fingerprints: `--devices` machines, each registering `--visits` times, every 4th visit with a
 * re-rendered canvas and a newer browser (a fuzzy link) and a visitor id on half of them.
 * Prints µs of process CPU per registration for both, and their ratio (same run, same machine).
 * Run: `npm run bench:device-link [-- --devices 2000 --visits 10]`
 */
import {
  deviceIdFromStable,
  type StableFingerprint,
  stableFingerprint,
} from '../packages/server/src/fingerprint/device-id.ts';
import { linkDevice } from '../packages/server/src/fingerprint/device-link.ts';
import { MemoryHotState } from '../packages/server/src/state/memory.ts';
import { arg } from './lib/args.ts';

const DEVICES = Number(arg('devices') ?? 2000);
const VISITS = Number(arg('visits') ?? 10);
const NOW = 1_700_000_000_000;

interface Registration {
  stable: StableFingerprint;
  visitor: string;
  ua: string;
}

const registrations: Registration[] = [];
for (let v = 0; v < VISITS; v++)
  for (let d = 0; d < DEVICES; d++) {
    const update = v > 0 && v % 4 === 0;
    const version = 120 + Math.floor(v / 4);
    registrations.push({
      stable: stableFingerprint({
        platform: 'Win32',
        screen: { width: 1920, height: 1080, color_depth: 24, pixel_ratio: 1 },
        hardware_concurrency: 4 + (d % 4) * 4,
        device_memory: 8,
        max_touch_points: 0,
        canvas_hash: update ? `canvas-${d}-${version}` : `canvas-${d}`,
        webgl: { unmasked_vendor: 'Google Inc.', unmasked_renderer: `GPU ${d % 50}`, hash: `gl-${d}` },
        audio_hash: `audio-${d % 7}`,
        math_hash: 'math',
        fonts: ['Arial', 'Calibri', `Font ${d % 500}`],
      }),
      visitor: d % 2 === 0 ? `visitor-${String(d).padStart(12, '0')}` : '',
      ua: `Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/${version}.0.0.0 Safari/537.36`,
    });
  }

function cpuMicros(): number {
  const u = process.cpuUsage();
  return u.user + u.system;
}

const hashStart = cpuMicros();
let sink = 0;
for (const r of registrations) sink += deviceIdFromStable(r.stable).length;
const hashUs = (cpuMicros() - hashStart) / registrations.length;

const h = new MemoryHotState(() => NOW);
const linkStart = cpuMicros();
const links: Record<string, number> = {};
for (const r of registrations) {
  const out = await linkDevice(h, 'site_bench', r.stable, r.visitor, r.ua, NOW);
  links[out.link] = (links[out.link] ?? 0) + 1;
}
const linkUs = (cpuMicros() - linkStart) / registrations.length;
await h.close();

console.log(`${registrations.length} registrations (${DEVICES} devices × ${VISITS} visits), sink ${sink}`);
console.log(`links: ${JSON.stringify(links)}`);
console.log(`exact hash only: ${hashUs.toFixed(2)} µs CPU per registration`);
console.log(
  `linkDevice:      ${linkUs.toFixed(2)} µs CPU per registration (${(linkUs / hashUs).toFixed(1)}× the hash)`,
);
