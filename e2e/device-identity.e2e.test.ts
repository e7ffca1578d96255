import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CONDITIONS, Machine, override, registeredDevice } from '../eval/browsers/device-conditions.ts';
import { chromiumAvailable } from './support/browser.ts';
import { type RunningServer, startServer } from './support/server.ts';

/**
 * Issue 28 in real chromium: one machine keeps its device id through reloads, restarts,
 * incognito, a fresh profile, a resized window, page zoom, another time zone or language list,
 * a user agent update and a re-rendering browser (with or without its storage); simulated other
 * machines get other ids. Each visit launches chromium anew on the conditions' switches.
 */
describe.skipIf(!chromiumAvailable())('device identity in chromium', { timeout: 300_000 }, () => {
  let server: RunningServer;
  let machine: Machine;
  let home: string;

  beforeAll(async () => {
    server = await startServer({ WARDEN_LOG_LEVEL: 'error' });
    machine = new Machine(`${server.baseUrl}/demo`);
    home = await machine.deviceId({ profile: 'home' });
  }, 120_000);

  afterAll(async () => {
    machine?.close();
    await server?.stop();
  });

  it('has a device id', () => {
    expect(home).toMatch(/^dev_[0-9a-f]{24}$/);
  });

  for (const c of CONDITIONS) {
    it(`${c.same ? 'keeps' : 'changes'} the device id: ${c.name}`, async () => {
      const id = await machine.deviceId(c.visit);
      expect(id).toMatch(/^dev_/);
      if (c.same) expect(id).toBe(home);
      else expect(id).not.toBe(home);
    });
  }

  it("flags a visitor id copied into another machine's storage, which keeps its own id", async () => {
    const visitor = await machine.deviceId({ profile: 'home' }, (p) =>
      p.evaluate(`localStorage.getItem('warden_vid')`).then(String),
    );
    expect(visitor).toMatch(/^[0-9a-f]{32}$/);
    const other = override('Navigator', 'hardwareConcurrency', '6');
    const own = await machine.deviceId({ profile: 'fresh', init: other });
    const copied = await machine.deviceId(
      { profile: 'fresh', init: `${other} localStorage.setItem('warden_vid', '${visitor}');` },
      async (p) =>
        JSON.stringify({
          device: await registeredDevice(p),
          rules: await p.evaluate('window.wardenDemo.decisions[0].signals.map((s) => s.rule)'),
        }),
    );
    const out = JSON.parse(copied) as { device: string; rules: string[] };
    expect(own).not.toBe(home);
    expect(out.device).toBe(own);
    expect(out.rules).toContain('device_visitor_conflict');
  });
});
