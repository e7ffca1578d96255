import { describe, expect, it } from 'vitest';
import type { Reach } from '../aiming/reaches.ts';
import { SHOP_LAYOUT } from '../aiming-bots/pages.ts';
import { desktopScript } from './desktop-input.ts';
import { SETUPS, selectSetups, withAimingData } from './setups.ts';

/** A made-up reach (no row of the study is in the repository): a bowed 500 px path, 10 ms polls. */
const reach = (trial: number): Reach => {
  const moves: Reach['moves'] = Array.from({ length: 51 }, (_, i) => {
    const u = i / 50;
    const s = u ** 3 * (10 - 15 * u + 6 * u * u);
    return [10 * i, Math.round(-300 * s + 20 * Math.sin(Math.PI * s)), Math.round(-400 * s)];
  });
  return { subject: 2, trial, moves, press: [700, -300, -400] };
};

describe('the aiming person of eval:browsers', () => {
  it('is skipped, saying how to run it, when no aiming data is given', () => {
    const [setup] = selectSetups(['person-aiming'], withAimingData(SETUPS, undefined));
    expect(setup).toMatchObject({ id: 'person-aiming', person: true });
    expect(setup?.kind === 'desktop' && setup.skipped).toMatch(
      /--aiming <path-to>\/mousetrap-kh2017\/raw_data\.csv\.gz/,
    );
  });

  it('takes the data path when given, and leaves the other setups as they were', () => {
    const setups = withAimingData(SETUPS, '/data/raw_data.csv.gz');
    const aiming = setups.find((s) => s.id === 'person-aiming');
    expect(aiming?.kind === 'desktop' && aiming.aimingData).toBe('/data/raw_data.csv.gz');
    expect(aiming?.kind === 'desktop' && aiming.skipped).toBeFalsy();
    expect(setups.filter((s) => s.id !== 'person-aiming')).toEqual(
      SETUPS.filter((s) => s.id !== 'person-aiming'),
    );
  });

  it('drives the form with the reaches it is given: three presses, both fields typed', async () => {
    const creds = { email: 'a@b.co', password: 'pw' };
    const lines = await desktopScript('aiming', SHOP_LAYOUT, creds, 17, {
      human: [],
      bot: [],
      reaches: [reach(1), reach(2), reach(3)],
    });
    expect(lines.filter((l) => l === 'mousedown 1')).toHaveLength(3);
    expect(lines.filter((l) => l.startsWith('mousemove')).length).toBeGreaterThan(60);
    await expect(desktopScript('aiming', SHOP_LAYOUT, creds, 17, { human: [], bot: [] })).rejects.toThrow(
      /needs reaches/,
    );
  });
});
