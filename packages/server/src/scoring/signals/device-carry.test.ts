import { describe, expect, it } from 'vitest';
import { registerFingerprint } from '../../fingerprint/register.ts';
import { useClockedContext } from '../../testing/clocked-context.ts';
import { testEngine } from '../../testing/scoring-engine.ts';
import type { Signal } from '../engine-types.ts';
import { outcomeWrites } from '../history.ts';
import { FINGERPRINT, HUMAN_UA, makeInput, rules, testSite } from '../test-fixtures.ts';
import { DEVICE_CARRY_ALL_FROM, deviceEvidenceRisk } from './device-carry.ts';

const sig = (rule: string, score: number): Signal => ({ rule, score, description: rule });
/** A person's page with pointer friction (62, challenge): a back-and-forth and a sharp turn, on a VPN. */
const FRICTION = [
  sig('mouse_synthetic_jitter', 30),
  sig('behavior_bot_combined', 20),
  sig('behavior_humanlike', 0),
  sig('datacenter_ip', 12),
];

describe('the risk a decision leaves on its device', () => {
  it('leaves out the behaviour, input and aiming tells', () => {
    expect(deviceEvidenceRisk(FRICTION)).toBe(12);
    expect(deviceEvidenceRisk([sig('click_teleport', 25), sig('mouse_reaches_unbraked', 30)])).toBe(0);
  });
  it('keeps what the device showed, and behaviour that speaks for the person', () => {
    const device = [
      sig('automation_cdp', 35),
      sig('native_function_tampering', 30),
      sig('behavior_humanlike', -15),
    ];
    expect(deviceEvidenceRisk(device)).toBe(50);
  });
  it('carries the behaviour tells of a page that showed automation (a driver, not a person)', () => {
    expect(deviceEvidenceRisk([sig('automation_cdp', 35), sig('mouse_straight_path', 35)])).toBe(70);
  });
  it('carries the whole evidence of a page that reached block', () => {
    const blocked = [
      sig('mouse_straight_path', 35),
      sig('mouse_constant_speed', 30),
      sig('behavior_bot_combined', 20),
    ];
    expect(deviceEvidenceRisk(blocked)).toBe(DEVICE_CARRY_ALL_FROM);
  });
  it('is written for the device while the token keeps the whole evidence risk', () => {
    const writes = outcomeWrites('s', 'dev_1', 62, {
      tokenId: 'tok_1',
      evidenceRisk: 62,
      deviceRisk: deviceEvidenceRisk(FRICTION),
      previousToken: 0,
      previousDevice: 0,
    });
    expect(writes.filter((w) => w[0] === 'set').map((w) => [w[1], w[2]])).toEqual([
      ['rrisk:s:tok:tok_1', '62'],
      ['rrisk:s:dev:dev_1', '12'],
    ]);
  });
});

describe("a person's own friction on one page does not compound on the next (engine)", () => {
  const t = useClockedContext();
  const site = testSite('site_device_carry');

  /** A page of this device (its own token) scored in the browser, its signals replaced by `signals`. */
  async function earlierPage(signals: Signal[]) {
    const engine = testEngine(t.ctx);
    const { token } = await registerFingerprint(t.ctx, site, { fingerprint: FINGERPRINT });
    const input = makeInput(
      t.ctx,
      { token, fingerprint: FINGERPRINT, context: { account_id: 'a1' } },
      { site, surface: 'browser', userAgent: HUMAN_UA },
    );
    const scored = await engine.score(input);
    const risk = signals.reduce((a, s) => a + s.score, 0);
    await engine.afterRecord?.(input, { ...scored, signals, risk_score: risk });
  }
  async function nextPage() {
    t.clock += 60_000;
    const engine = testEngine(t.ctx);
    const { token } = await registerFingerprint(t.ctx, site, { fingerprint: FINGERPRINT });
    return engine.score(
      makeInput(
        t.ctx,
        { token, fingerprint: FINGERPRINT, context: { account_id: 'a1' } },
        { site, surface: 'browser', userAgent: HUMAN_UA },
      ),
    );
  }

  it('does not carry behavioural friction to a later page of the same device', async () => {
    await earlierPage([
      sig('mouse_synthetic_jitter', 30),
      sig('mouse_sharp_turns', 20),
      sig('behavior_bot_combined', 20),
    ]);
    expect(rules(await nextPage())).not.toContain('device_recent_risk');
  });
  it('still carries what the device itself showed', async () => {
    await earlierPage([sig('automation_cdp', 35), sig('native_function_tampering', 30)]);
    const next = await nextPage();
    expect(next.signals.find((s) => s.rule === 'device_recent_risk')?.score).toBeGreaterThan(0);
  });
});
