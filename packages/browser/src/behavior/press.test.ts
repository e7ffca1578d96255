import { afterEach, describe, expect, it, vi } from 'vitest';
import { PointerFrameProbe, PressTimer } from './press.ts';

type Fake = Partial<PointerEvent>;
const ev = (over: Fake): PointerEvent =>
  ({ isTrusted: true, pointerType: 'mouse', pointerId: 1, button: 0, timeStamp: 0, ...over }) as PointerEvent;

function press(timer: PressTimer, at: number, hold: number, over: Fake = {}): void {
  timer.pointerDown(ev({ timeStamp: at, ...over }));
  timer.pointerUp(ev({ timeStamp: at + hold, ...over }));
}

describe('PressTimer', () => {
  afterEach(() => {
    vi.restoreAllMocks();
  });

  it('summarises the hold of each primary mouse press', () => {
    const t = new PressTimer();
    press(t, 1000, 2);
    press(t, 3000, 95);
    press(t, 5000, 4);
    expect(t.summary()).toEqual({ count: 3, quick: 2, median_ms: 4 });
  });

  it('does not time touch taps, script-dispatched events, other buttons or cancelled presses', () => {
    const t = new PressTimer();
    press(t, 1000, 1, { pointerType: 'touch' });
    press(t, 2000, 1, { isTrusted: false });
    press(t, 3000, 1, { button: 2 });
    t.pointerDown(ev({ timeStamp: 4000 }));
    t.cancel(ev({}));
    t.pointerUp(ev({ timeStamp: 4001 }));
    // (A keyboard-activated click sends no pointerdown at all: nothing reaches the timer.)
    expect(t.summary()).toBeUndefined();
  });

  it('sends nothing when the clock is too coarse to time a press', () => {
    vi.spyOn(performance, 'now').mockReturnValue(100);
    const t = new PressTimer();
    press(t, 1000, 0);
    press(t, 2000, 0);
    expect(t.summary()).toBeUndefined();
  });
});

describe('PointerFrameProbe', () => {
  afterEach(() => {
    vi.unstubAllGlobals();
  });

  function probe(
    win: Record<string, unknown>,
    screenOffset: [number, number],
  ): ReturnType<PointerFrameProbe['summary']> {
    const w = { ...win } as Record<string, unknown>;
    w.top = w;
    vi.stubGlobal('window', w);
    const p = new PointerFrameProbe();
    for (let i = 0; i < 12; i++) {
      const clientX = 100 + i * 7;
      const clientY = 200 + i * 3;
      p.observe(
        ev({ clientX, clientY, screenX: clientX + screenOffset[0], screenY: clientY + screenOffset[1] }),
      );
    }
    return p.summary();
  }

  it('headless CDP: events offset by 87 px in a window without chrome', () => {
    const s = probe(
      { screenX: 0, screenY: 0, outerWidth: 1280, innerWidth: 1280, outerHeight: 720, innerHeight: 720 },
      [0, 87],
    );
    expect(s).toEqual({ samples: 8, dx: 0, dy: 87, spread: 0, chrome_x: 0, chrome_y: 0 });
  });

  it('a real window: the event offset is the toolbar height', () => {
    const s = probe(
      { screenX: 40, screenY: 30, outerWidth: 1280, innerWidth: 1280, outerHeight: 900, innerHeight: 813 },
      [40, 30 + 87],
    );
    expect(s).toEqual({ samples: 8, dx: 0, dy: 87, spread: 0, chrome_x: 0, chrome_y: 87 });
  });

  it('records nothing inside a frame', () => {
    vi.stubGlobal('window', { top: {}, screenX: 0, screenY: 0 });
    const p = new PointerFrameProbe();
    p.observe(ev({ clientX: 1, clientY: 1, screenX: 1, screenY: 88 }));
    expect(p.summary()).toBeUndefined();
  });
});
