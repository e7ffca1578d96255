import { describe, expect, it } from 'vitest';
import { mulberry32 } from '../../packages/server/src/testing/rng.ts';
import { judge, shape } from './real-typists.ts';
import { aaltoPages, cmuPages } from './typist-pages.ts';

/** Made-up rows in the data sets' formats (no third-party data in the repository). */
const aaltoText = (n: number) =>
  [
    'PARTICIPANT_ID\tTEST_SECTION_ID\tPRESS_TIME\tRELEASE_TIME\tLETTER',
    ...Array.from({ length: n }, (_, i) => {
      const press = 1_000_000 + i * 150;
      return `7\t1\t${press}\t${press + 80}\t${i % 10 === 0 ? 'SHIFT' : 'a'}`;
    }),
  ].join('\n');

const cmuRow = (rep: number) =>
  `s1,1,${rep},${Array.from({ length: 21 }, (_, i) => (i % 2 === 0 ? 80 : 200)).join(',')}`;
/** The compact copy's header: H and DD columns of the 11 keys in typing order. */
const CMU_HEADER = `subject,sessionIndex,rep,${Array.from({ length: 21 }, (_, i) =>
  i % 2 === 0 ? `H.k${i / 2}` : `DD.k${(i - 1) / 2}.k${(i + 1) / 2}`,
).join(',')}`;

describe('eval:typists pages', () => {
  it('cuts one Aalto participant into consecutive windows of 25–40 keys, SHIFT a modifier', () => {
    const pages = aaltoPages(aaltoText(100), mulberry32(1)).get('7')!;
    expect(pages.length).toBeGreaterThanOrEqual(2);
    for (const p of pages) {
      expect(p.length).toBeGreaterThanOrEqual(25);
      expect(p.length).toBeLessThanOrEqual(40);
      expect(p[0]!.down).toBe(1000);
    }
    expect(pages[0]![0]!.modifier).toBe(true);
    expect(pages[0]![1]!.modifier).toBe(false);
  });

  it('joins 2–3 CMU repetitions of 11 keys, the next one 1–2 s after the Return', () => {
    const text = [CMU_HEADER, ...[1, 2, 3, 4, 5, 6].map(cmuRow)].join('\n');
    const pages = cmuPages(text, mulberry32(2)).get('s1')!;
    for (const p of pages) {
      expect([22, 33]).toContain(p.length);
      expect(p[1]!.down - p[0]!.down).toBe(200);
      const pause = p[11]!.down - p[10]!.down;
      expect(pause).toBeGreaterThanOrEqual(1000);
      expect(pause).toBeLessThan(2000);
    }
  });

  it('reads the CMU file as published: seconds, with up-down columns beside', () => {
    // H, DD, UD for each key pair, then the last hold: the published column order.
    const names = ['subject', 'sessionIndex', 'rep'];
    const cells: string[] = [];
    for (let k = 0; k < 10; k++) {
      names.push(`H.k${k}`, `DD.k${k}.k${k + 1}`, `UD.k${k}.k${k + 1}`);
      cells.push('0.0800', '0.2000', '0.1200');
    }
    names.push('H.k10');
    cells.push('0.0800');
    const rows = [1, 2, 3, 4].map((rep) => `s1,1,${rep},${cells.join(',')}`);
    const pages = cmuPages([names.join(','), ...rows].join('\n'), mulberry32(2)).get('s1')!;
    expect(pages.length).toBeGreaterThan(0);
    expect(pages[0]![0]!.hold).toBeCloseTo(80);
    expect(pages[0]![1]!.down - pages[0]![0]!.down).toBeCloseTo(200);
  });
});

describe('eval:typists statistics', () => {
  it('measures rollover and the gap ratios over non-modifier keys', () => {
    const page = [0, 100, 200, 300, 500].map((down, i) => ({
      down,
      hold: i === 1 ? 150 : 50,
      modifier: false,
    }));
    page.push({ down: 505, hold: 300, modifier: true });
    const s = shape(page);
    expect(s.rollover).toBeCloseTo(1 / 4);
    expect(s['DD max/p50']).toBeCloseTo(2);
  });

  it('the engine tells a fixed delay from a person', () => {
    const fixed = Array.from({ length: 30 }, (_, i) => ({ down: 1000 + i * 90, hold: 45, modifier: false }));
    expect(judge(fixed).tells.has('key_rhythm_uniform')).toBe(true);
    const random = mulberry32(3);
    let t = 1000;
    const person = Array.from({ length: 30 }, () => {
      t += 120 * Math.exp(0.5 * (random() - 0.5) * 2);
      return { down: t, hold: 60 + random() * 60, modifier: false };
    });
    expect(judge(person).tells.size).toBe(0);
  });
});
