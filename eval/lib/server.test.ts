import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Harness, startHarness } from './server.ts';

const T0 = Date.parse('2026-03-02T10:00:00Z');

describe('the eval harness', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness(T0);
  });
  afterAll(() => h.close());

  const login = (at: number) => {
    h.clock.set(at);
    return h.api.verify({
      context: {
        event_type: 'login',
        account_id: 'acct_clock',
        ip_address: '198.51.100.7',
        user_agent: 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 Chrome/120.0 Safari/537.36',
        login_succeeded: true,
      },
    });
  };
  const rules = async (at: number) => {
    const outcome = await login(at);
    if (!outcome.ok) throw new Error(`verify failed: ${outcome.status} ${outcome.code}`);
    return outcome.decision.signals.map((s) => s.rule);
  };

  it("counts velocity on its virtual clock (the engine's hot state is the harness's)", async () => {
    // Ten logins a virtual minute apart: never ten in one minute, though all within a second of
    // wall time (an engine on the wall clock would count them all).
    for (let i = 0; i < 10; i++) expect(await rules(T0 + i * 60_000)).not.toContain('velocity_account_1m');
    // Ten more within one virtual minute: the tenth is the tenth in that minute.
    const base = T0 + 20 * 60_000;
    for (let i = 0; i < 9; i++) await login(base + i * 1000);
    expect(await rules(base + 9_000)).toContain('velocity_account_1m');
  });
});
