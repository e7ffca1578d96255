import type { Scenario } from '../lib/types.ts';
import { cardTesting } from './card-testing.ts';
import { credentialStuffing } from './credential-stuffing.ts';
import { headless } from './headless.ts';
import { humansDesktop } from './humans-desktop.ts';
import { humansLongTail } from './humans-longtail.ts';
import { humansMobile } from './humans-mobile.ts';
import { promoAbuse } from './promo-abuse.ts';
import { scripted, scriptedSpoofed } from './scripted.ts';
import { stealthPatched, stealthPlaywright, stealthPuppeteer } from './stealth.ts';
import { tokenReplay } from './token-replay.ts';
import { tuningHuman, tuningPyhm, tuningPynput } from './tuning.ts';

/** Every family, in report order. */
export const SCENARIOS: readonly Scenario[] = [
  humansDesktop,
  humansMobile,
  humansLongTail,
  scripted,
  scriptedSpoofed,
  headless,
  stealthPuppeteer,
  stealthPlaywright,
  stealthPatched,
  credentialStuffing,
  cardTesting,
  promoAbuse,
  tokenReplay,
  tuningHuman,
  tuningPynput,
  tuningPyhm,
];
