import { type StealthKit, stealthChrome } from '../lib/bot-devices.ts';
import type { MouseStyle } from '../lib/bot-input.ts';
import { automatedSession } from '../lib/bot-run.ts';
import { pickLocale } from '../lib/locales.ts';
import { datacenterIp, residentialIp } from '../lib/network.ts';
import { DAY, type Scenario, type Step, sized } from '../lib/types.ts';

/**
 * Stealth automation, one family per kit: puppeteer-extra-stealth (headless on a server: CDP
 * side effect, a worker that shows the real machine, sometimes a patched webdriver getter or
 * leaky native patches), Playwright driving a headed Chrome (CDP side effect only), and patched
 * CDP drivers such as nodriver/patchright (no CDP tell; fingerprint-spoofing scripts leak
 * non-native functions or a worker/page WebGL mismatch). Normal user agent, webdriver false,
 * scripted or absent mouse movement; residential proxies for most.
 */
function kitScenario(kit: StealthKit, bots: number): Scenario {
  return {
    family: {
      id: `bot_stealth_${kit.replaceAll('-', '_')}`,
      title: `Stealth: ${kit}`,
      label: 'bot',
      section: 'headline',
    },
    build(env) {
      const steps: Step[] = [];
      const { rng } = env;
      for (let bot = 0; bot < sized(env, bots); bot++) {
        const locale = pickLocale(rng);
        const device = stealthChrome(rng, locale, kit);
        const mouse = rng.weighted<MouseStyle>([
          ['none', 25],
          ['teleport', 20],
          ['linear-burst', 15],
          ['linear-fixed', 15],
          ['bezier-fixed', 10],
          ['ghost-cursor', 10],
          ['replay-uniform', 5],
        ]);
        const proxy = rng.chance(0.6);
        let at = env.t0 + rng.uniform(0, env.days * DAY - DAY);
        const sessions = rng.int(2, 6);
        for (let i = 0; i < sessions; i++) {
          const ip = proxy ? residentialIp(rng, locale.region) : datacenterIp(rng);
          steps.push(...automatedSession(rng, env.traces.human, device, ip, at, mouse, 'st'));
          at += rng.uniform(20_000, 600_000);
        }
      }
      return steps;
    },
  };
}

export const stealthPuppeteer = kitScenario('puppeteer-stealth', 9);
export const stealthPlaywright = kitScenario('playwright-headful', 9);
export const stealthPatched = kitScenario('patched-cdp', 9);
