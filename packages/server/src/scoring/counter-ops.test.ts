import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { AppContext } from '../context.ts';
import { withParts } from '../decisions/packed-row.ts';
import { registerFingerprint } from '../fingerprint/register.ts';
import { localStateDeps } from '../services.ts';
import { createTestWorkspace } from '../testing/accounts.ts';
import { createTestContext } from '../testing/context.ts';
import { type DecisionRow, insertDecisions } from '../testing/decision-rows.ts';
import { testEngine } from '../testing/scoring-engine.ts';
import { type CounterEvent, counterEventOfRecord, counterOps, rebuildWrites } from './counter-ops.ts';
import { History, type Observation } from './history.ts';
import { DAY, HOUR, MINUTE } from './history-keys.ts';
import { rebuildHistory } from './history-rebuild.ts';
import { FINGERPRINT, insertSite, makeInput, recordDecision, testSite } from './test-fixtures.ts';

let ctx: AppContext;
let clock: number;
beforeEach(async () => {
  clock = 1_700_000_000_000;
  ctx = await createTestContext({ now: () => clock });
});
afterEach(async () => {
  vi.restoreAllMocks();
  await ctx.hotState.close();
  await ctx.database.close();
});

/**
 * One decision of device `dev_<name>` and token `tok_<name>` recorded a minute ago with `signals`,
 * rebuilt into the hot state: the recent risk (`rrisk:`) the rebuild left on each.
 */
async function rebuiltRecentRisk(name: string, signals: NonNullable<DecisionRow['signals']>) {
  const ws = await createTestWorkspace(ctx);
  const siteId = ws.site.id;
  await insertDecisions(ctx, { id: siteId, workspaceId: ws.workspaceId }, [
    { device_id: `dev_${name}`, signals, features: { token_id: `tok_${name}` }, created_at: clock - MINUTE },
  ]);
  await rebuildHistory(localStateDeps(ctx), siteId);
  return {
    device: await ctx.hotState.get(`rrisk:${siteId}:dev:dev_${name}`),
    token: await ctx.hotState.get(`rrisk:${siteId}:tok:tok_${name}`),
  };
}

describe('counter operations', () => {
  it('are the same for an event scored live and rebuilt from its recorded decision', async () => {
    const site = testSite('site_ops');
    await insertSite(ctx, site);
    const reg = await registerFingerprint(ctx, site, { fingerprint: FINGERPRINT });
    const observed: Array<{ id: string; event: Promise<CounterEvent> }> = [];
    const observe = History.prototype.observe;
    let current = '';
    vi.spyOn(History.prototype, 'observe').mockImplementation(function (this: History, o: Observation, now) {
      const { siteId: _s, hardwareProfile, ...facts } = o;
      observed.push({
        id: current,
        event: Promise.resolve(hardwareProfile).then((p) => ({ ...facts, hardwareProfile: p })),
      });
      return observe.call(this, o, now);
    });
    const engine = testEngine(ctx);
    const events = [
      // A failed login with an e-mail, from IPv6.
      makeInput(
        ctx,
        { context: { login_succeeded: false, email: 'Jo.Doe+x@gmail.com' } },
        { site, ip: '2001:db8::7' },
      ),
      // A small payment with fingerprint evidence (hardware profile counted).
      makeInput(
        ctx,
        {
          fingerprint: FINGERPRINT,
          context: { event_type: 'checkout', payment_hash: 'pay_1', order_amount: 2 },
        },
        { site },
      ),
      // A backend payment with only the token: its device's remembered profile, the SDK marker.
      makeInput(
        ctx,
        { token: reg.token, context: { event_type: 'checkout', payment_hash: 'pay_2', order_amount: 1 } },
        { site },
      ),
      // A browser event with the token and no account.
      makeInput(
        ctx,
        { token: reg.token, context: { event_type: 'page_view', account_id: '' } },
        { site, surface: 'browser' },
      ),
      // A successful login with nothing else.
      makeInput(ctx, { context: { login_succeeded: true } }, { site, userAgent: '' }),
    ];
    for (const input of events) {
      current = input.decisionId;
      const result = await engine.score(input);
      await recordDecision(ctx, input, result);
      clock += 1_000;
    }
    expect(observed).toHaveLength(events.length);
    for (const { id, event } of observed) {
      const row = withParts(
        await ctx.database.db
          .selectFrom('decisions')
          .selectAll()
          .where('id', '=', id)
          .executeTakeFirstOrThrow(),
      );
      const live = await event;
      expect(counterEventOfRecord(row)).toEqual(live);
      expect(counterOps(site.id, counterEventOfRecord(row))).toEqual(counterOps(site.id, live));
    }
    // The cases above cover what they claim.
    const lives = await Promise.all(observed.map((o) => o.event));
    expect(
      lives.map((e) => [e.loginFailed, e.smallPayment, e.sdkServerCall, e.hardwareProfile !== '']),
    ).toEqual([
      [true, false, false, false],
      [false, true, false, true],
      [false, true, true, true],
      [false, false, false, false],
      [false, false, false, false],
    ]);
  });

  it('rebuilds the recent risk live scoring remembered: the evidence risk, without carried signals', async () => {
    const rebuilt = await rebuiltRecentRisk('rr', [
      { rule: 'browser_session', score: 40 },
      { rule: 'carried_automation_cdp', score: 30 },
      { rule: 'datacenter_ip', score: 12 },
    ]);
    expect(rebuilt.device).toBe('12');
    expect(rebuilt.token).toBe('12');
  });

  it("rebuilds the device's share: a person's behavioural friction stays with its token", async () => {
    const rebuilt = await rebuiltRecentRisk('bh', [
      { rule: 'mouse_synthetic_jitter', score: 30 },
      { rule: 'behavior_bot_combined', score: 20 },
      { rule: 'datacenter_ip', score: 12 },
    ]);
    expect(rebuilt.device).toBe('12');
    expect(rebuilt.token).toBe('62');
  });

  it('rebuild only the writes whose window still covers the event, never device-window ones', () => {
    const ops = counterOps('s', {
      eventType: 'login',
      accountId: 'a',
      ip: '198.51.100.1',
      deviceId: 'd',
      paymentHash: '',
      email: '',
      loginFailed: true,
      login: true,
      tokenId: '',
      subnet: '198.51.100',
      userAgent: 'ua',
      smallPayment: false,
      sdkServerCall: false,
      paymentEvent: false,
      hardwareProfile: '',
    });
    const keys = (age: number) =>
      rebuildWrites(ops, age).map((op) => (op.kind === 'sdk' ? 'sdk' : `${op.key}@${op.window}`));
    expect(keys(30_000)).toContain(`vel:s:ip:198.51.100.1@${MINUTE}`);
    expect(keys(2 * MINUTE)).not.toContain(`vel:s:ip:198.51.100.1@${MINUTE}`);
    expect(keys(2 * MINUTE)).toContain(`fail:s:acct:a@${HOUR}`);
    expect(keys(2 * HOUR)).not.toContain(`fail:s:acct:a@${HOUR}`);
    expect(keys(2 * HOUR)).toContain(`fail24:s:net:198.51.100@${DAY}`);
    expect(keys(0).some((k) => k.startsWith('devn:') || k.startsWith('devbad:'))).toBe(false);
    // Reads (a distinct count without a member, a counter not added to) add nothing.
    expect(keys(0).some((k) => k.startsWith('small:'))).toBe(false);
  });
});
