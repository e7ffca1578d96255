import type { ScoringContext } from '@warden/protocol';
import { type BotFormPlan, botForm } from './bot-input.ts';
import type { Device } from './devices.ts';
import { BrowserPage } from './page.ts';
import type { Rng } from './rng.ts';
import type { Trace } from './traces.ts';
import type { Step } from './types.ts';

/**
 * An automated browser submitting one form with the SDK on the page: register, collect, and the
 * shop backend's /verify with the token (unless the bot only talks to the scoring API).
 */
export interface BotPageOptions {
  device: Device;
  ip: string;
  at: number;
  plan: BotFormPlan;
  browserContext: ScoringContext;
  serverContext?: ScoringContext;
  /** Skip the SDK's /collect (a bot submitting the form before the SDK scored it). */
  skipCollect?: boolean;
}

export function botPage(
  rng: Rng,
  human: readonly Trace[],
  o: BotPageOptions,
): { steps: Step[]; end: number } {
  const page = new BrowserPage(o.device, o.ip, o.at, rng);
  const t = botForm(page, rng, human, o.plan);
  const steps: Step[] = [page.register(t)];
  if (!o.skipCollect) steps.push(page.collect(t, o.browserContext));
  if (o.serverContext) steps.push(page.verify(t, o.serverContext));
  return { steps, end: o.at + t + 500 };
}

/** A page_view from an automated browser (SDK fires on load; little or no interaction). */
export function botPageView(
  rng: Rng,
  device: Device,
  ip: string,
  at: number,
  accountId: string,
): { steps: Step[]; end: number } {
  const page = new BrowserPage(device, ip, at, rng);
  const t = rng.uniform(300, 1500);
  return {
    steps: [page.register(t), page.collect(t, { event_type: 'page_view', account_id: accountId })],
    end: at + t + 200,
  };
}
