import { isbot } from 'isbot';
import { describe, expect, it } from 'vitest';
import { baseFeatures, HUMAN_UA } from '../test-fixtures.ts';
import { userAgent } from './user-agent.ts';

const rules = (ua: string, o: Parameters<typeof baseFeatures>[0] = {}) =>
  userAgent
    .evaluate(baseFeatures({ user_agent: ua, ua_is_bot: ua !== '' && isbot(ua), ...o }))
    .map((s) => s.rule);

describe('user agent', () => {
  it('passes a real browser', () => {
    expect(rules(HUMAN_UA)).toEqual([]);
  });
  it.each([
    'curl/8.5.0',
    'python-requests/2.31.0',
    'Googlebot/2.1 (+http://www.google.com/bot.html)',
    'Go-http-client/1.1',
  ])('flags %s as a known bot', (ua) => {
    expect(rules(ua)).toEqual(['ua_known_bot']);
  });
  it('flags a missing user agent', () => {
    expect(rules('')).toEqual(['ua_missing']);
    expect(rules('   ')).toEqual(['ua_missing']);
  });
  it('flags a navigator.userAgent different from the header', () => {
    expect(rules(HUMAN_UA, { ua_js_mismatch: true })).toEqual(['ua_mismatch']);
  });
  it('names what contradicts the User-Agent', () => {
    const s = userAgent.evaluate(baseFeatures({ ua_inconsistencies: ['platform', 'client_hints_platform'] }));
    expect(s).toMatchObject([{ rule: 'ua_platform_mismatch', score: 25 }]);
    expect(s[0]?.description).toContain('platform, client_hints_platform');
  });
  it('leaves headless Chrome to the automation family', () => {
    expect(rules('Mozilla/5.0 HeadlessChrome/126.0', { ua_headless: true })).toEqual([]);
  });
});
