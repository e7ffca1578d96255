import { describe, expect, it } from 'vitest';
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
