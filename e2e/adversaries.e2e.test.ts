import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Display, startXvfbIn } from '../eval/browsers/desktop-input.ts';
import { SETUPS, type Setup } from '../eval/browsers/setups.ts';
import { type Shop, startShop } from '../eval/browsers/shop.ts';
import { startWarden, type VisitOutcome, visit, type Warden } from '../eval/browsers/visit.ts';
import { desktopAvailable } from './support/desktop.ts';

/**
 * Issue 14: two adversaries of `npm run eval:browsers` run once each through the shop page (the
 * SDK integrated as docs/browser-sdk.md says, the shop's backend enforcing `/verify`):
 * patchright-core headful with `fill`, and a plain chromium moved by OS-level input along
 * ghost-cursor's own Bezier paths. Asserted: the shop's backend called /verify with the SDK's
 * token, a decision was made for the same device as the browser's decision, and each setup's
 * evidence is what the setup leaves (recorded by the SDK and by the benchmark's probe).
 * The `fill` run must not be allowed at /verify: it carries the browser session's
 * `text_without_typing` (issue 14, points 1–2). Which action /verify takes for the ghost-cursor run
 * is not asserted: xdotool sleeping ghost-cursor's step times leaves sparse pointer updates
 * (`mouse_sparse_updates`; no risk since issue 24: the path tells abstain on such input) in
 * about 9 of 10 runs, not all (its random step counts keep some paths under 40 ms a step). Asserted instead: the SDK measured how the moves arrived, and that
 * they stayed on the pixel grid. Headful patchright moving along ghost-cursor-playwright's Bezier
 * points over CDP leaves positions between pixels (`pointer_subpixel`), carried to `/verify`.
 */
const setup = (id: string): Setup => {
  const s = SETUPS.find((x) => x.id === id);
  if (!s) throw new Error(`no setup ${id}`);
  return s;
};

const ACTIONS = ['allow', 'review', 'challenge', 'block'];

describe.skipIf(!desktopAvailable())('adversaries through the shop page', { timeout: 60_000 }, () => {
  let shop: Shop;
  let display: Display;
  let warden: Warden;

  beforeAll(async () => {
    shop = await startShop(Array.from({ length: 100 }, (_, i) => 20900 + i));
    display = await startXvfbIn(Array.from({ length: 10 }, (_, i) => 90 + i));
    warden = await startWarden(shop);
  }, 90_000);

  afterAll(async () => {
    await warden?.server.stop();
    await shop?.stop();
    await display?.stop();
  });

  /** The shop's backend verified the SDK's token and got a decision about the browser's device. */
  function expectEnforcedDecision(o: VisitOutcome): void {
    const show = JSON.stringify({ error: o.error, verify: o.verify, collect: o.collect });
    console.info(
      `[e2e] ${o.setup}: /verify ${o.verify?.action} ${o.verify?.risk_score} [${o.verify?.signals.map((s) => s.rule).join(', ')}]` +
        ` · /collect ${o.collect?.classification} ${o.collect?.riskScore} [${o.collect?.signals.map((s) => s.rule).join(', ')}]` +
        ` · BotD ${o.botd?.bot ? 'bot' : 'not bot'}`,
    );
    expect(o.error, show).toBeUndefined();
    expect(o.tokenSent, show).toBe(true);
    expect(ACTIONS, show).toContain(o.verify?.action);
    expect(ACTIONS, show).toContain(o.collect?.action);
    expect(o.verify?.device_id, show).toBeTruthy();
    expect(o.verify?.device_id, show).toBe(o.collect?.deviceId);
    expect(typeof o.botd?.bot, show).toBe('boolean');
  }

  it('patchright-core, headful, fill: verified with the token; no key events, text typed without keys', async () => {
    const o = await visit(setup('patchright-headful-fill'), 0, { shop, warden, display, timeoutMs: 40_000 });
    expectEnforcedDecision(o);
    // What `fill` leaves: both fields changed by input events with no key pressed, and one click.
    const behavior = (o.collect?.evidence?.behavior ?? {}) as Record<string, unknown>;
    expect(o.probe?.keys.keydown).toBe(0);
    expect(o.probe?.keys.inputWithoutKey).toBeGreaterThanOrEqual(2);
    expect(o.probe?.clicks).toHaveLength(1);
    // …and the SDK sent it: the browser decision's evidence has no key sample and one click.
    expect(behavior['key_samples'], JSON.stringify(behavior)).toBe(0);
    expect(behavior['clicks'], JSON.stringify(behavior)).toBe(1);
    // The enforced decision carries what the browser found: text entered without typing.
    expect(o.verify?.action, JSON.stringify(o.verify?.signals)).not.toBe('allow');
    expect(o.verify?.signals.map((x) => x.rule)).toContain('carried_text_without_typing');
    // Headful patchright leaves no environment tell in the page: no webdriver, no headless screen.
    expect(o.probe?.webdriver).toBe(false);
    expect(o.probe?.geometry.outerHeight).toBeGreaterThan(o.probe?.geometry.innerHeight ?? Infinity);
  });

  it('plain chromium moved along ghost-cursor paths by xdotool: verified with the token; trusted moves and keys', async () => {
    // Run 1: its seeded ghost-cursor paths (eval/browsers/desktop-input.ts) sleep 45 ms or more
    // before 14 moves of 10 px or more; run 0's paths have none, so they leave no sparse step.
    const o = await visit(setup('xdotool-ghost'), 1, { shop, warden, display, timeoutMs: 45_000 });
    expectEnforcedDecision(o);
    expect(o.probe?.moves.count).toBeGreaterThan(20);
    expect(o.probe?.moves.untrusted).toBe(0);
    expect(o.probe?.keys.keydown).toBeGreaterThan(20);
    expect(o.probe?.keys.inputWithoutKey).toBe(0);
    expect(o.probe?.clicks.length).toBe(3);
    const behavior = (o.collect?.evidence?.behavior ?? {}) as Record<string, unknown>;
    expect(Number(behavior['mouse_moves'] ?? 0), JSON.stringify(behavior)).toBeGreaterThan(20);
    expect(Number(behavior['key_samples'] ?? 0), JSON.stringify(behavior)).toBeGreaterThan(20);
    expect(behavior['clicks'], JSON.stringify(behavior)).toBe(3);
    // The SDK timed the moves (pointer_steps): xdotool's absolute moves, slept between, jump.
    const steps = behavior['pointer_steps'] as { moving: number; sparse: number } | null | undefined;
    expect(steps?.moving, JSON.stringify(behavior)).toBeGreaterThan(20);
    expect(steps?.sparse, JSON.stringify(behavior)).toBeGreaterThan(0);
    // OS input stays on the pixel grid (pointer_grid): XTest moves land on whole pixels.
    const grid = behavior['pointer_grid'] as { judged: number; fractional: number } | null | undefined;
    expect(grid?.judged, JSON.stringify(behavior)).toBeGreaterThan(20);
    expect(grid?.fractional, JSON.stringify(behavior)).toBe(0);
    expect(o.collect?.signals.map((x) => x.rule)).not.toContain('pointer_subpixel');
  });

  it('patchright-core, headful, ghost-cursor over CDP: moves between pixels, not allowed at /verify', async () => {
    const o = await visit(setup('patchright-headful-ghost'), 0, { shop, warden, display, timeoutMs: 50_000 });
    expectEnforcedDecision(o);
    const behavior = (o.collect?.evidence?.behavior ?? {}) as Record<string, unknown>;
    const grid = behavior['pointer_grid'] as { judged: number; fractional: number } | null | undefined;
    expect(grid?.judged, JSON.stringify(behavior)).toBeGreaterThan(20);
    expect(grid?.fractional, JSON.stringify(behavior)).toBeGreaterThan((grid?.judged ?? 0) / 2);
    expect(o.verify?.signals.map((x) => x.rule)).toContain('carried_pointer_subpixel');
    expect(o.verify?.action, JSON.stringify(o.verify?.signals)).not.toBe('allow');
  });
});
