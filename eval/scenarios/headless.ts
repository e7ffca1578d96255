import { headlessChrome } from '../lib/bot-devices.ts';
import { pickMouseStyle } from '../lib/bot-input.ts';
import { automatedSession } from '../lib/bot-run.ts';
import { datacenterIp } from '../lib/network.ts';
import { DAY, type Scenario, type Step, sized } from '../lib/types.ts';

/** Headless Chrome with tool defaults (Puppeteer, Playwright, Selenium): HeadlessChrome UA, webdriver true. */
export const headless: Scenario = {
  family: { id: 'bot_headless', title: 'Headless browser', label: 'bot', section: 'headline' },
  build(env) {
    const steps: Step[] = [];
    const { rng } = env;
    for (let bot = 0; bot < sized(env, 10); bot++) {
      const device = headlessChrome(rng);
      const ip = datacenterIp(rng);
      let at = env.t0 + rng.uniform(0, env.days * DAY - DAY);
      const sessions = rng.int(2, 8);
      for (let i = 0; i < sessions; i++) {
        steps.push(...automatedSession(rng, env.traces.human, device, ip, at, pickMouseStyle(rng), 'hl'));
        at += rng.uniform(15_000, 180_000);
      }
    }
    return steps;
  },
};
