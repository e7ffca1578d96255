import { path as ghostPath } from 'ghost-cursor';
// ghost-cursor-playwright's own path generator (the eval's `patchright-headful-ghost` moves along it).
import { path as playwrightGhostPath } from 'ghost-cursor-playwright/lib/math.js';
import { afterEach, describe, expect, it, vi } from 'vitest';
// The repository's one seeded PRNG (tests only): the libraries draw their curves with Math.random.
import { mulberry32 } from '../../../server/src/testing/rng.ts';
import { PointerGridProbe } from './grid.ts';
import { humanTraces } from './test-traces.ts';

const move = (x: number, y: number, over: Partial<PointerEvent> = {}): PointerEvent =>
  ({ isTrusted: true, pointerType: 'mouse', clientX: x, clientY: y, ...over }) as PointerEvent;

function stubWindow(over: Record<string, unknown> = {}): void {
  const w: Record<string, unknown> = { devicePixelRatio: 1, visualViewport: { scale: 1 }, ...over };
  w.top ??= w;
  vi.stubGlobal('window', w);
}

/** Moves [x, y] through a fresh probe. */
function judge(points: ReadonlyArray<{ x: number; y: number }>) {
  const probe = new PointerGridProbe();
  for (const p of points) probe.observe(move(p.x, p.y));
  return probe.summary();
}

/** Chromium keeps an event's position as a float (gfx::PointF): what a CDP x/y becomes in the page. */
const throughCdp = (points: ReadonlyArray<{ x: number; y: number }>) =>
  points.map((p) => ({ x: Math.fround(p.x), y: Math.fround(p.y) }));

/** The first 40 traces' moves, as positions. */
function humanMoves(): Array<{ x: number; y: number }> {
  return humanTraces()
    .slice(0, 40)
    .flatMap((trace) => trace.map(([, x, y]) => ({ x, y })));
}

describe('PointerGridProbe', () => {
  afterEach(() => {
    vi.unstubAllGlobals();
    vi.restoreAllMocks();
  });

  it("ghost-cursor-playwright's Bezier points dispatched over CDP land between device pixels (30 seeded logins)", () => {
    stubWindow();
    for (let seed = 1; seed <= 30; seed++) {
      const random = mulberry32(seed);
      vi.spyOn(Math, 'random').mockImplementation(random);
      const start = { x: random() * 1200, y: random() * 900 };
      const field = { x: 700 + random() * 300, y: 250 + random() * 40 };
      const points = throughCdp([
        ...playwrightGhostPath(start, field),
        ...playwrightGhostPath(field, { x: field.x + random() * 20, y: field.y + 90 }),
      ]);
      const s = judge(points);
      expect(s?.judged).toBe(points.length);
      // Only the first point of each path may be whole; the rest are off both grids.
      expect(s!.fractional / s!.judged, `seed ${seed}`).toBeGreaterThan(0.9);
      expect(s!.off_fixed / s!.judged, `seed ${seed}`).toBeGreaterThan(0.9);
      expect(s?.dpr).toBe(1);
    }
  });

  it("ghost-cursor's path() too (puppeteer flavour, whole start and end points)", () => {
    stubWindow();
    vi.spyOn(Math, 'random').mockImplementation(mulberry32(7));
    const s = judge(throughCdp(ghostPath({ x: 100, y: 100 }, { x: 640, y: 420 })));
    expect(s!.off_fixed / s!.judged).toBeGreaterThan(0.8);
  });

  it('a real mouse on whole pixels: recorded people, and device pixels at a fractional pixel ratio', () => {
    stubWindow();
    const people = judge(humanMoves());
    expect(people?.judged).toBeGreaterThan(1000);
    expect(people?.fractional).toBe(0);
    // Windows at 125 %: Chromium reports device pixels / 1.25 as floats; × ratio is whole again.
    stubWindow({ devicePixelRatio: 1.25 });
    const scaled = judge(
      humanMoves()
        .slice(0, 500)
        .map((p) => ({ x: Math.fround(p.x / 1.25), y: Math.fround(p.y / 1.25) })),
    );
    expect(scaled).toMatchObject({ judged: 500, fractional: 0, dpr: 1.25 });
  });

  it("Wayland's 1/256 px positions are fractional but on the fixed grid", () => {
    stubWindow();
    const s = judge(
      humanMoves().map((p, i) => ({ x: p.x + ((i * 37) % 256) / 256, y: p.y + ((i * 91) % 256) / 256 })),
    );
    expect(s!.fractional).toBeGreaterThan(s!.judged * 0.9);
    expect(s?.off_fixed).toBe(0);
  });

  it('does not judge touch, pen or script-dispatched moves, pinch-zoomed pages or frames', () => {
    stubWindow();
    const probe = new PointerGridProbe();
    probe.observe(move(1.5, 2.5, { pointerType: 'touch' }));
    probe.observe(move(1.5, 2.5, { pointerType: 'pen' }));
    probe.observe(move(1.5, 2.5, { isTrusted: false }));
    expect(probe.summary()).toBeUndefined();
    stubWindow({ visualViewport: { scale: 1.6 } });
    probe.observe(move(1.5, 2.5));
    expect(probe.summary()).toBeUndefined();
    stubWindow({ top: {} });
    probe.observe(move(1.5, 2.5));
    expect(probe.summary()).toBeUndefined();
  });
});
