import { aimAt, fittingTrace, type Pt, placeTrace } from './geometry.ts';
import { humanScroll, swipe, tap, typeText } from './input.ts';
import { formLayout } from './layout.ts';
import type { BrowserPage } from './page.ts';
import type { Rng } from './rng.ts';
import type { Trace } from './traces.ts';

/**
 * Real people filling a form. Desktop: mouse movements are recorded human traces (DELBOT
 * circles_human_pc1) carried onto the form's fields, keystrokes have log-normal dwell and gaps.
 * Mobile: taps, swipes and a virtual keyboard. Returns the page time of the submit.
 */
export interface FormPlan {
  /** Characters typed per field (0: filled by autofill or a password manager). */
  typing: number[];
  /** Paste into a field instead of typing (password managers, copied card numbers). */
  pasteFields?: number;
  /**
   * Fields without typing or paste were autofilled (browser or password manager). Otherwise they
   * are not the page's fields (card fields in the payment provider's iframe) or kept their default.
   */
  autofilled?: boolean;
}

/** A person's mouse button hold, ms (people hold 50–150 ms; generated, not recorded). */
export function humanHold(rng: Rng): number {
  return Math.min(400, rng.logNormal(100, 0.3));
}

/** Records how field `i` of the plan got its text (the SDK's `behavior.form`). */
export function recordField(page: BrowserPage, plan: FormPlan, i: number): void {
  const chars = plan.typing[i] ?? 0;
  if (chars > 0) page.rec.field('typed', chars);
  else if (i < (plan.pasteFields ?? 0)) page.rec.field('pasted', 0);
  else if (plan.autofilled) page.rec.field('autofilled', 0);
}

function moveTo(page: BrowserPage, rng: Rng, traces: readonly Trace[], from: Pt, to: Pt, t: number): number {
  const trace = fittingTrace(rng, traces, from, to);
  const path = placeTrace(trace, from, to, t, page.device.viewport);
  page.rec.move(path);
  return path[path.length - 1]?.[0] ?? t;
}

export function humanDesktopForm(
  page: BrowserPage,
  rng: Rng,
  traces: readonly Trace[],
  plan: FormPlan,
): number {
  const view = page.device.viewport;
  const { inputs, submit } = formLayout(view, plan.typing.length);
  let t = rng.logNormal(1400, 0.5);
  let at: Pt = { x: rng.uniform(0.2, 0.8) * view.w, y: rng.uniform(0.15, 0.85) * view.h };
  if (rng.chance(0.3)) t = humanScroll(page.rec, rng, t, rng.int(1, 2));
  for (const [i, box] of inputs.entries()) {
    const target = aimAt(rng, box);
    t = moveTo(page, rng, traces, at, target, t) + rng.logNormal(90, 0.4);
    at = target;
    page.rec.click(t, at.x, at.y, 0, humanHold(rng));
    recordField(page, plan, i);
    const chars = plan.typing[i] ?? 0;
    if (chars > 0) t = typeText(page.rec, rng, t + rng.logNormal(350, 0.4), chars, { kind: 'human-desktop' });
    else page.rec.pastes += i < (plan.pasteFields ?? 0) ? 1 : 0;
    t += rng.logNormal(450, 0.6);
  }
  const target = aimAt(rng, submit);
  t = moveTo(page, rng, traces, at, target, t) + rng.logNormal(110, 0.4);
  const hold = humanHold(rng);
  page.rec.click(t, target.x, target.y, 0, hold);
  // The form submits on the click, after the button comes up.
  return t + hold + rng.uniform(5, 30);
}

export function humanMobileForm(page: BrowserPage, rng: Rng, plan: FormPlan): number {
  const view = page.device.viewport;
  const { inputs, submit } = formLayout(view, plan.typing.length);
  let t = rng.logNormal(1600, 0.5);
  if (rng.chance(0.6))
    t = swipe(page.rec, rng, t, view.w * rng.uniform(0.3, 0.7), view.h * 0.7) + rng.logNormal(700, 0.5);
  for (const [i, box] of inputs.entries()) {
    const p = aimAt(rng, box);
    tap(page.rec, rng, t, p.x, p.y);
    recordField(page, plan, i);
    const chars = plan.typing[i] ?? 0;
    if (chars > 0) t = typeText(page.rec, rng, t + rng.logNormal(500, 0.4), chars, { kind: 'human-mobile' });
    else page.rec.pastes += i < (plan.pasteFields ?? 0) ? 1 : 0;
    t += rng.logNormal(600, 0.5);
  }
  const p = aimAt(rng, submit);
  tap(page.rec, rng, t, p.x, p.y);
  return t + rng.uniform(40, 120);
}

/** Landing on a page: a glance, maybe a scroll or a movement; page_view fires after load. */
export function humanBrowse(page: BrowserPage, rng: Rng, traces: readonly Trace[]): number {
  const view = page.device.viewport;
  let t = rng.logNormal(900, 0.5);
  if (page.device.kind === 'mobile') {
    if (rng.chance(0.5)) t = swipe(page.rec, rng, t, view.w / 2, view.h * 0.7);
    return t + rng.uniform(50, 400);
  }
  if (rng.chance(0.6)) {
    const from = { x: rng.uniform(0.1, 0.9) * view.w, y: rng.uniform(0.1, 0.9) * view.h };
    const to = { x: rng.uniform(0.1, 0.9) * view.w, y: rng.uniform(0.1, 0.9) * view.h };
    t = moveTo(page, rng, traces, from, to, t);
  }
  if (rng.chance(0.4)) t = humanScroll(page.rec, rng, t, 1);
  return t + rng.uniform(50, 400);
}

/** Either form filler, by device kind. */
export function humanForm(page: BrowserPage, rng: Rng, traces: readonly Trace[], plan: FormPlan): number {
  return page.device.kind === 'mobile'
    ? humanMobileForm(page, rng, plan)
    : humanDesktopForm(page, rng, traces, plan);
}
