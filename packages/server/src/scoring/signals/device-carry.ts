import type { Signal } from '../engine-types.ts';
import { aiming } from './aiming.ts';
import { automation } from './automation.ts';
import { behavior } from './behavior.ts';
import { input } from './input.ts';
import { evidenceRisk } from './session.ts';

/**
 * An evidence risk this high (the `block` level) is carried through the device whatever it rests on.
 */
export const DEVICE_CARRY_ALL_FROM = 85;

/** A rule of the families that judge how the page was used (pointer, keys, aiming, pace). */
function behavioural(rule: string): boolean {
  return (
    Object.hasOwn(behavior.rules, rule) ||
    Object.hasOwn(input.rules, rule) ||
    Object.hasOwn(aiming.rules, rule)
  );
}

/**
 * The evidence risk a decision leaves on its device for later pages (`device_recent_risk`): its
 * evidence risk (session.ts `evidenceRisk`) without the risk of the behaviour, input and aiming
 * tells, unless the whole evidence reached DEVICE_CARRY_ALL_FROM or the page showed automation
 * (an automation-family signal: then its pointer was a driver's, not a person's). A person whose pointer looked
 * odd on one page is judged afresh on the next (their own friction does not compound); what the
 * device itself showed (automation, network, velocity, identity), and a page that was blocked,
 * still carry. The token (the same page session) carries the whole evidence risk.
 */
export function deviceEvidenceRisk(signals: readonly Signal[]): number {
  const all = evidenceRisk(signals);
  if (all >= DEVICE_CARRY_ALL_FROM) return all;
  // A page that showed automation (CDP, webdriver, patched natives) was not a person's own pace.
  if (signals.some((s) => s.score > 0 && Object.hasOwn(automation.rules, s.rule))) return all;
  return evidenceRisk(signals.filter((s) => s.score <= 0 || !behavioural(s.rule)));
}
