import { describe, expect, it } from 'vitest';
import { behaviorMetrics } from '../behavior-metrics.ts';
import { baseFeatures } from '../test-fixtures.ts';
import { automation } from './automation.ts';

const rules = (o: Parameters<typeof baseFeatures>[0]) =>
  automation.evaluate(baseFeatures(o)).map((s) => s.rule);

describe('automation', () => {
  it('is silent for a normal browser', () => {
    expect(rules({})).toEqual([]);
  });
  it('treats webdriver, artefacts and headless as hard evidence', () => {
    expect(rules({ webdriver: true })).toEqual(['automation_webdriver']);
    expect(rules({ webdriver: false, webdriver_defined: 'getter_patched' })).toEqual([
      'automation_webdriver_patched',
    ]);
    expect(
      rules({ automation_artifacts: ['cdc_adoQpoasnfa76pfcZLmcfl_Array', '__playwright__binding__'] }),
    ).toEqual(['automation_artifacts']);
    expect(rules({ ua_headless: true })).toEqual(['headless_browser']);
    expect(rules({ headless_markers: ['headless_ua'] })).toEqual(['headless_browser']);
    for (const rule of ['automation_webdriver', 'automation_artifacts', 'headless_browser']) {
      expect(automation.rules[rule]?.hard).toBe(true);
    }
  });
  it('scores soft headless hints per marker up to 30', () => {
    const [one] = automation.evaluate(baseFeatures({ headless_markers: ['no_plugins'] }));
    expect(one).toMatchObject({ rule: 'headless_hints', score: 10 });
    const [many] = automation.evaluate(baseFeatures({ headless_markers: ['a', 'b', 'c', 'd', 'e'] }));
    expect(many?.score).toBe(30);
  });
  it('flags CDP, tampered natives and worker mismatches as soft evidence', () => {
    expect(
      rules({
        cdp: true,
        tampered_functions: ['Function.prototype.toString'],
        worker_mismatch: ['user_agent'],
      }),
    ).toEqual(['automation_cdp', 'native_function_tampering', 'worker_mismatch']);
    expect(automation.rules.automation_cdp?.hard).toBeFalsy();
  });
});

describe('stealth leaks', () => {
  it('treats a HeadlessChrome worker as hard headless evidence', () => {
    expect(rules({ worker_headless: true, worker_mismatch: ['user_agent'] })).toEqual([
      'headless_browser',
      'worker_mismatch',
    ]);
  });
  it('scores a worker that renders in software behind a page that claims a GPU near-hard, not alone', () => {
    const s = automation.evaluate(
      baseFeatures({ software_renderer: 'worker', worker_mismatch: ['webgl_renderer'] }),
    );
    expect(s.map((x) => x.rule)).toEqual(['worker_mismatch', 'worker_software_renderer']);
    const total = s.reduce((n, x) => n + x.score, 0);
    expect(total).toBeGreaterThanOrEqual(60);
    expect(total).toBeLessThan(85);
  });
  it('scores software rendering on a page only for Windows/macOS user agents', () => {
    expect(rules({ software_renderer: 'page', ua_os: 'windows' })).toEqual(['software_renderer']);
    expect(rules({ software_renderer: 'page', ua_os: 'linux' })).toEqual([]);
  });
  it('flags a missing navigator.webdriver on desktop Chromium only', () => {
    expect(rules({ webdriver_defined: 'absent' })).toEqual(['webdriver_absent']);
    expect(rules({ webdriver_defined: 'absent', ua_chromium: false })).toEqual([]);
    expect(rules({ webdriver_defined: 'absent', ua_mobile: true })).toEqual([]);
  });
  it('keeps CDP and tampering alone soft and below a challenge', () => {
    for (const o of [{ cdp: true }, { tampered_functions: ['HTMLCanvasElement.toDataURL'] }]) {
      const s = automation.evaluate(baseFeatures(o));
      expect(s.every((x) => !automation.rules[x.rule]?.hard)).toBe(true);
      expect(s.reduce((n, x) => n + x.score, 0)).toBeLessThan(60);
    }
  });
});

describe('CDP with machine-made input', () => {
  const present = { ...behaviorMetrics(undefined), present: true, interactions: 40, mouse_points: 60 };
  const straight = { ...present, mouse_moves: 120, clicks: 3, strokes: 4, straight_strokes: 3 };
  it('is hard evidence when a DevTools client is attached and the input is scripted', () => {
    expect(rules({ cdp: true, behavior: straight })).toEqual(['automation_cdp', 'automation_cdp_scripted']);
    expect(automation.rules.automation_cdp_scripted?.hard).toBe(true);
    // A form submitted without any interaction counts as scripted too.
    const none = { ...behaviorMetrics(undefined), present: true, interactions: 0 };
    expect(rules({ cdp: true, event_type: 'signup', behavior: none })).toContain('automation_cdp_scripted');
  });
  it('stays soft for open DevTools with human input, and for page views without interaction', () => {
    const human = { ...present, mouse_moves: 120, clicks: 3, strokes: 4, straight_strokes: 0 };
    expect(rules({ cdp: true, behavior: human })).toEqual(['automation_cdp']);
    const idle = { ...behaviorMetrics(undefined), present: true, interactions: 0 };
    expect(rules({ cdp: true, event_type: 'page_view', behavior: idle })).toEqual(['automation_cdp']);
    expect(rules({ behavior: straight })).toEqual([]);
  });
});
