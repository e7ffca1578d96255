import { describe, expect, it } from 'vitest';
import { DEVICE_TRANSFORMS } from '../lib/device-transforms.ts';
import { formatRate, wilson } from '../lib/wilson.ts';
import { SHOP_LAYOUT } from './carry.ts';
import { aimingPage, personPages, REACHES_PER_PAGE } from './pages.ts';
import { parseReaches, type Reach, splitCsvLine, splitPeople } from './reaches.ts';

/** Made-up rows in the data set's layout (no row of the data set is in the repository). */
const HEADER =
  '"subject_nr","count_trial","Condition","response_time","timestamps_get_response","xpos_get_response","ypos_get_response"';
const row = (subject: number, trial: number, t: number[], x: number[], y: number[]) =>
  `${subject},${trial},"Typical",${t[t.length - 1]! - t[0]!},"${JSON.stringify(t)}","${JSON.stringify(x)}","${JSON.stringify(y)}"`;

const recorded = DEVICE_TRANSFORMS.find((t) => t.id === 'recorded')!;

/** A made-up reach from (0, 430) up to (-700, -420), polled every 10 ms, resting 300 ms before the press. */
function reach(subject: number, trial: number): Reach {
  const moves: Array<readonly [number, number, number]> = [];
  for (let i = 0; i <= 60; i++) {
    const u = i / 60;
    const s = u ** 3 * (10 - 15 * u + 6 * u * u);
    moves.push([100 + i * 10, Math.round(-700 * s + 40 * Math.sin(Math.PI * s)), Math.round(430 - 850 * s)]);
  }
  const last = moves[moves.length - 1]!;
  return { subject, trial, moves, press: [last[0] + 300, last[1], last[2]] };
}

describe('aiming data (made-up rows)', () => {
  it('splits CSV lines on commas outside quotes', () => {
    expect(splitCsvLine('1,"a, b","[1.0, 2.0]",x')).toEqual(['1', 'a, b', '[1.0, 2.0]', 'x']);
  });

  it('reads reaches: times from the trial start, repeated polls dropped, the press at the last poll', () => {
    const text = [
      HEADER,
      row(3, 2, [5000, 5010, 5020, 5030, 5040], [0, 0, 4, 9, 9], [430, 430, 420, 400, 400]),
      row(4, 1, [10, 20], [1, 2], [3]),
    ].join('\n');
    const [r, ...rest] = parseReaches(text);
    expect(rest).toEqual([]); // arrays of unequal length: skipped
    expect(r).toEqual({
      subject: 3,
      trial: 2,
      moves: [
        [0, 0, 430],
        [20, 4, 420],
        [30, 9, 400],
      ],
      press: [40, 9, 400],
    });
  });

  it('refuses a file without the position columns', () => {
    expect(() => parseReaches('"subject_nr","count_trial"\n1,1')).toThrow(/timestamps_get_response/);
  });

  it('splits people by the parity of their number: odd tuning, even held out', () => {
    const { tuning, heldOut } = splitPeople([reach(1, 1), reach(2, 1), reach(3, 1), reach(4, 2)]);
    expect(tuning.map((r) => r.subject)).toEqual([1, 3]);
    expect(heldOut.map((r) => r.subject)).toEqual([2, 4]);
  });

  it("cuts each person's reaches into pages in trial order, never mixing people", () => {
    const reaches = [
      reach(2, 3),
      reach(1, 2),
      reach(1, 1),
      reach(2, 1),
      reach(1, 3),
      reach(1, 4),
      reach(2, 2),
    ];
    const pages = personPages(reaches);
    expect(pages.map((p) => p.map((r) => `${r.subject}/${r.trial}`))).toEqual([
      ['1/1', '1/2', '1/3'],
      ['2/1', '2/2', '2/3'],
    ]);
  });

  it('builds a page that carries each reach onto a leg of the form, keeps its times and its rest before the press', () => {
    const reaches = Array.from({ length: REACHES_PER_PAGE }, (_, i) => reach(2, i + 1));
    const page = aimingPage(reaches, recorded, 7);
    expect(page.clicks).toBe(3);
    expect(page.key_presses).toBe(29);
    const clicks = page.click_samples ?? [];
    const mouse = page.mouse ?? [];
    // The presses land in the email field, the password field and on submit (page pixels).
    const { x: left, y: top } = SHOP_LAYOUT.content;
    for (const [i, box] of [SHOP_LAYOUT.email, SHOP_LAYOUT.password, SHOP_LAYOUT.submit].entries()) {
      const [, px, py] = clicks[i]!;
      expect(px! + left).toBeGreaterThanOrEqual(box.x);
      expect(px! + left).toBeLessThanOrEqual(box.x + box.width);
      expect(py! + top).toBeGreaterThanOrEqual(box.y);
      expect(py! + top).toBeLessThanOrEqual(box.y + box.height);
    }
    // Each press comes 300 ms after the reach's last move (the recorded rest; the recorder's 16 ms
    // throttle may keep the move before it, 10 ms earlier), where the pointer stopped.
    const [pt, px, py] = clicks[0]!;
    const beforePress = mouse.filter((m) => m[0] <= pt!);
    const rest = beforePress[beforePress.length - 1]!;
    expect(pt! - rest[0]!).toBeGreaterThanOrEqual(299.9);
    expect(pt! - rest[0]!).toBeLessThanOrEqual(310.1);
    expect(Math.hypot(px! - rest[1]!, py! - rest[2]!)).toBeLessThanOrEqual(2);
    // Positions are rounded once, by the recorder (0.1 px), not to whole pixels after a rotation.
    expect(mouse.some(([, x, y]) => !Number.isInteger(x) || !Number.isInteger(y))).toBe(true);
  });
});

describe('Wilson interval', () => {
  it('bounds a rate honestly near 0 and matches the textbook values', () => {
    expect(wilson(0, 180).low).toBe(0);
    expect(wilson(0, 180).high).toBeCloseTo(0.0209, 3);
    const { low, high } = wilson(10, 100);
    expect(low).toBeCloseTo(0.0552, 3);
    expect(high).toBeCloseTo(0.1744, 3);
    expect(formatRate(1, 180)).toBe('1/180 0.6 % [0.1–3.1]');
  });
});
