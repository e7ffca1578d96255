import { HumanScript } from '../../e2e/support/human-input.ts';
import { FLOOR_CHORD_MS } from '../../packages/server/src/scoring/input-metrics.ts';
import { LOADED_XDOTOOL, scriptKeys } from '../../packages/server/src/testing/key-samples.ts';
import { mulberry32, normal } from '../../packages/server/src/testing/rng.ts';
import { type Page, rebase } from './typist-pages.ts';

/** Scripts typing, seeded, for eval:typists to set beside the real typists: (a)–(d). */

/** A page's keys (22–40, like the real pages') and the first of them typed into the second field. */
function fieldSizes(random: () => number): { n: number; field: number } {
  const n = 22 + Math.floor(random() * 19);
  return { n, field: Math.floor(n * (0.35 + random() * 0.3)) };
}

/** Pages typed into two fields (fieldSizes) with a 0.4–1.5 s move between. */
function scriptPages(
  seed: number,
  count: number,
  key: (random: () => number) => { hold: number; next: number },
): Page[] {
  const random = mulberry32(seed);
  const pages: Page[] = [];
  for (let p = 0; p < count; p++) {
    const { n, field } = fieldSizes(random);
    const keys: Page = [];
    let t = 1000;
    for (let i = 0; i < n; i++) {
      if (i === field) t += 400 + random() * 1100;
      const { hold, next } = key(random);
      keys.push({ down: t, hold, modifier: false });
      t += next;
    }
    pages.push(keys);
  }
  return pages;
}

/** (a) A "humanised" script: each key held U(30, 90) ms, U(50, 180) ms from release to the next press. */
export const humanised = (seed: number, count: number) =>
  scriptPages(seed, count, (random) => {
    const hold = 30 + random() * 60;
    return { hold, next: hold + 50 + random() * 130 };
  });

/**
 * (b) `xdotool type --delay 90`: key down, sleep 45 ms, key up, sleep 45 ms; each sleep overruns by
 * 0–2 ms (idle) or, on a busy machine, three in five by 0–2 ms and the rest by 5–60 ms (the
 * key-floor tests' model).
 */
export const xdotool = (seed: number, count: number, busy: boolean) =>
  scriptPages(seed, count, (random) => {
    const late = () => (!busy || random() < 0.6 ? random() * 2 : 5 + random() * 55);
    const hold = 45 + late();
    return { hold, next: hold + 45 + late() };
  });

/** (b') The real loaded `xdotool type --delay 90` visit (LOADED_XDOTOOL): windows of 25–40 of its keys. */
export function loadedXdotool(): Page[] {
  const keys = LOADED_XDOTOOL.keys;
  const all: Page = keys.map((k, i) => ({
    down: k[0]!,
    hold: k[1]!,
    // No key names: a key whose next key goes down within a chord is its modifier.
    modifier: i + 1 < keys.length && keys[i + 1]![0]! - k[0]! < FLOOR_CHORD_MS,
  }));
  const pages: Page[] = [];
  for (const n of [25, 30, 35, 40])
    for (let i = 0; i + n <= all.length; i += 4) pages.push(rebase(all.slice(i, i + n)));
  return pages;
}

/**
 * (c) Warden's e2e person model, `HumanScript.type`: a typist drawn per page (log-normal key-down
 * gaps, median U(150, 300) ms, log-σ U(0.45, 0.8), 35 ms or more; log-normal holds, median
 * U(70, 120) ms, log-σ U(0.15, 0.3); keys roll over where a gap is shorter than the previous
 * hold), typing lower-case letters (no Shift) into two fields, converted as the e2e tests do
 * (`scriptKeys`, release order; sorted by down time here, as the engine does).
 */
export function humanScript(seed: number, count: number): Page[] {
  const random = mulberry32(seed);
  const pages: Page[] = [];
  for (let p = 0; p < count; p++) {
    const { n, field } = fieldSizes(random);
    const letters = (k: number) =>
      Array.from({ length: k }, () => String.fromCharCode(97 + Math.floor(random() * 26))).join('');
    const s = new HumanScript(seed * 1000 + p);
    s.type(letters(field))
      .sleep(400 + random() * 1100)
      .type(letters(n - field));
    pages.push(
      rebase(
        scriptKeys(s.lines)
          .map(([down, hold]) => ({ down: down!, hold: hold!, modifier: false }))
          .sort((a, b) => a.down - b.down),
      ),
    );
  }
  return pages;
}

/** (d) Gaussian delays: key-down to key-down N(150, 30) ms, holds N(75, 15) ms (at least 20, and 5 under the gap). */
export const gaussian = (seed: number, count: number) =>
  scriptPages(seed, count, (random) => {
    const hold = Math.max(20, 75 + 15 * normal(random));
    return { hold, next: Math.max(hold + 5, 150 + 30 * normal(random)) };
  });
