import type { PageRecorder } from './recorder.ts';
import type { Rng } from './rng.ts';
import type { Sample } from './traces.ts';

/** Keyboard, scroll and touch input, human and scripted. Each returns the page time it ends at. */
export type TypingStyle =
  | { kind: 'human-desktop' }
  | { kind: 'human-mobile' }
  /** Puppeteer page.type(…, {delay}): key down/up back to back, fixed delay between keys. */
  | { kind: 'cdp-type'; delay: number }
  /** Selenium send_keys: a burst of key events a few ms apart. */
  | { kind: 'send-keys' }
  /** A "humanised" bot: uniform random delays, uniform dwell. */
  | { kind: 'uniform-random'; min: number; max: number };

export function typeText(rec: PageRecorder, rng: Rng, t0: number, count: number, style: TypingStyle): number {
  let t = t0;
  for (let i = 0; i < count; i++) {
    let dwell: number;
    let gap: number;
    switch (style.kind) {
      case 'human-desktop':
        dwell = Math.min(400, rng.logNormal(92, 0.3));
        gap = rng.logNormal(165, 0.5) + (rng.chance(0.05) ? rng.uniform(400, 1600) : 0);
        break;
      case 'human-mobile':
        dwell = Math.min(300, rng.logNormal(72, 0.3));
        gap = rng.logNormal(230, 0.45) + (rng.chance(0.06) ? rng.uniform(300, 1200) : 0);
        break;
      case 'cdp-type':
        dwell = rng.uniform(0.2, 1.6);
        gap = style.delay + rng.uniform(0.3, 2.5);
        break;
      case 'send-keys':
        dwell = rng.uniform(0.4, 3);
        gap = rng.uniform(4, 12);
        break;
      case 'uniform-random':
        dwell = rng.uniform(40, 110);
        gap = rng.uniform(style.min, style.max);
        break;
    }
    rec.key(t, dwell);
    t += Math.max(dwell + 1, gap);
  }
  return t;
}

/** Wheel scrolling: smooth-scroll events at frame rate while the page glides, in a few flicks. */
export function humanScroll(rec: PageRecorder, rng: Rng, t0: number, flicks: number): number {
  let t = t0;
  let y = 0;
  for (let f = 0; f < flicks; f++) {
    const distance = rng.int(2, 6) * 100;
    const frames = rng.int(12, 26);
    for (let i = 1; i <= frames; i++) {
      const eased = 1 - (1 - i / frames) ** 3;
      t += rng.uniform(15.5, 17.5);
      rec.scroll(t, y + distance * eased);
    }
    y += distance;
    t += rng.logNormal(900, 0.6);
  }
  return t;
}

/** A finger tap (touchstart only, as the SDK records it). */
export function tap(rec: PageRecorder, rng: Rng, t: number, x: number, y: number): void {
  rec.touch([[t, x + rng.normal(0, 3), y + rng.normal(0, 3)]]);
}

/** A vertical swipe: touchmove at ~60 Hz, decelerating, with a little sideways drift. */
export function swipe(rec: PageRecorder, rng: Rng, t0: number, x: number, y: number): number {
  const frames = rng.int(8, 20);
  const dy = -rng.uniform(150, 450);
  const drift = rng.normal(0, 12);
  const out: Sample[] = [];
  let t = t0;
  for (let i = 0; i <= frames; i++) {
    const e = 1 - (1 - i / frames) ** 2;
    out.push([t, x + drift * e + rng.normal(0, 0.8), y + dy * e]);
    t += rng.uniform(15, 18.5);
  }
  rec.touch(out);
  return t;
}
