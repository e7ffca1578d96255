import { aimAt, fittingTrace, type Pt, placeTrace } from './geometry.ts';
import { type TypingStyle, typeText } from './input.ts';
import { formLayout } from './layout.ts';
import type { BrowserPage } from './page.ts';
import type { Rng } from './rng.ts';
import { bezierPath, ghostCursorPath, linearPath, respaceUniform } from './synthetic.ts';
import type { Sample, Trace } from './traces.ts';

/**
 * Automation filling a form in a real browser engine. Movement styles are what the common tools
 * produce; none of them is drawn from the engine's tuning traces except `replay-uniform`, which
 * replays a human path with re-spaced timestamps.
 */
export type MouseStyle =
  | 'none'
  /** page.click(): one pointermove onto the element, then the click. */
  | 'teleport'
  | 'linear-burst'
  | 'linear-fixed'
  | 'bezier-fixed'
  | 'bezier-random'
  | 'ghost-cursor'
  | 'replay-uniform';

export interface BotFormPlan {
  typing: number[];
  mouse: MouseStyle;
  /** 'fill': value set through the DOM (Playwright fill), no key events. */
  keys: TypingStyle | 'fill';
  /** Delay before acting (page load wait), ms. */
  startDelay: number;
}

function path(
  rng: Rng,
  style: MouseStyle,
  from: Pt,
  to: Pt,
  t: number,
  page: BrowserPage,
  human: readonly Trace[],
): Sample[] {
  const view = page.device.viewport;
  const steps = rng.int(15, 40);
  switch (style) {
    case 'none':
      return [];
    case 'teleport':
      return [[t, to.x, to.y]];
    case 'linear-burst':
      return linearPath(rng, from, to, steps, t, { kind: 'burst' }).slice(1);
    case 'linear-fixed':
      return linearPath(rng, from, to, steps, t, { kind: 'fixed', dt: rng.pick([10, 16, 20, 25]) }).slice(1);
    case 'bezier-fixed':
      return bezierPath(rng, from, to, steps, t, { kind: 'fixed', dt: rng.pick([10, 16, 20]) }, view).slice(
        1,
      );
    case 'bezier-random':
      return bezierPath(rng, from, to, steps, t, { kind: 'random', min: 8, max: 35 }, view).slice(1);
    case 'ghost-cursor':
      return ghostCursorPath(rng, from, to, t, view).slice(1);
    case 'replay-uniform': {
      if (human.length === 0) return [];
      const placed = placeTrace(fittingTrace(rng, human, from, to), from, to, t, view);
      return respaceUniform(placed, t, rng.pick([10, 16, 16.7, 20]), rng);
    }
  }
}

/**
 * How long a driver holds the button: CDP `Input.dispatchMouseEvent` pairs (Playwright/Puppeteer
 * `click()`, patched kits) release in 0–11 ms; ghost-cursor waits between down and up (about 40
 * ms). Without a pointer (`none`: `element.click()`, `form.submit()`) there is no trusted press.
 */
function holdMs(rng: Rng, style: MouseStyle): number | undefined {
  if (style === 'none') return undefined;
  return style === 'ghost-cursor' ? rng.uniform(25, 70) : rng.uniform(0, 11);
}

export function botForm(page: BrowserPage, rng: Rng, human: readonly Trace[], plan: BotFormPlan): number {
  const { inputs, submit } = formLayout(page.device.viewport, plan.typing.length);
  let t = plan.startDelay;
  let at: Pt = { x: 0, y: 0 };
  const go = (box: { x: number; y: number; w: number; h: number }) => {
    // page.click() aims at the element's centre; the movers aim anywhere in the box.
    const centred = plan.mouse === 'teleport';
    const to = centred ? { x: box.x + box.w / 2, y: box.y + box.h / 2 } : aimAt(rng, box);
    const p = path(rng, plan.mouse, at, to, t, page, human);
    page.rec.move(p);
    t = (p[p.length - 1]?.[0] ?? t) + rng.uniform(1, 15);
    at = to;
    const hold = holdMs(rng, plan.mouse);
    page.rec.click(t, to.x, to.y, 0, hold);
    if (centred) page.rec.centred++;
    const down = t;
    t += Math.max(hold ?? 0, rng.uniform(1, 60));
    return down + (hold ?? 0);
  };
  for (const [i, box] of inputs.entries()) {
    go(box);
    const chars = plan.typing[i] ?? 0;
    if (chars > 0) page.rec.field(plan.keys === 'fill' ? 'untyped' : 'typed', chars);
    if (chars > 0 && plan.keys !== 'fill') t = typeText(page.rec, rng, t, chars, plan.keys);
    else t += rng.uniform(2, 30);
  }
  // The form submits on the click, after the button comes up.
  return go(submit) + rng.uniform(2, 20);
}

/** A mix of movement styles weighted like the automation seen in the wild. */
export function pickMouseStyle(rng: Rng): MouseStyle {
  return rng.weighted<MouseStyle>([
    ['none', 25],
    ['teleport', 20],
    ['linear-burst', 10],
    ['linear-fixed', 10],
    ['bezier-fixed', 10],
    ['bezier-random', 10],
    ['ghost-cursor', 10],
    ['replay-uniform', 5],
  ]);
}

export function pickBotTyping(rng: Rng): TypingStyle | 'fill' {
  return rng.weighted<TypingStyle | 'fill'>([
    ['fill', 35],
    [{ kind: 'cdp-type', delay: 0 }, 15],
    [{ kind: 'cdp-type', delay: rng.pick([50, 80, 100]) }, 20],
    [{ kind: 'send-keys' }, 15],
    [{ kind: 'uniform-random', min: 60, max: 220 }, 15],
  ]);
}
