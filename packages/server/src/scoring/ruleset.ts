import { createHash } from 'node:crypto';
import { METRIC_THRESHOLDS } from './behavior-metrics.ts';
import { CARRIED_PREFIX } from './browser-session.ts';
import { AIMING, aiming } from './signals/aiming.ts';
import { automation } from './signals/automation.ts';
import { behavior } from './signals/behavior.ts';
import { BEHAVIOR } from './signals/behavior-tells.ts';
import { deviceEvidence } from './signals/device-evidence.ts';
import { email } from './signals/email.ts';
import { fanout, PROMO_EMAIL_BONUS } from './signals/fanout.ts';
import { freshness, SKEW_REPLAY_MS, SKEW_STALE_MS } from './signals/freshness.ts';
import { CLUSTER_TIERS, identity } from './signals/identity.ts';
import { INPUT, input } from './signals/input.ts';
import {
  logins,
  SUBNET_FAILED_1H,
  SUBNET_FAILED_ACCOUNTS_24H,
  SUBNET_FAILURE_RATIO,
  UA_ROTATION,
} from './signals/logins.ts';
import { network } from './signals/network.ts';
import { CARD_TESTING_RUN, HARDWARE_MIN_DEVICES, PAYMENT_TIERS, payments } from './signals/payments.ts';
import { pow } from './signals/pow.ts';
import { REACH_CUBIC } from './signals/reach-cubic.ts';
import { REACH_SHAPE } from './signals/reach-shape.ts';
import { REACH_SWELL } from './signals/reach-swell.ts';
import {
  DEVICE_CARRY_CAP,
  RECENT_RISK_MIN,
  session,
  TOKEN_ACCOUNTS,
  TOKEN_EVENTS_1H,
} from './signals/session.ts';
import { TRUSTED_DEVICE_AGE_DAYS, TRUSTED_DEVICE_EVENTS, trust } from './signals/trust.ts';
import type { SignalFamily } from './signals/types.ts';
import { userAgent } from './signals/user-agent.ts';
import { VELOCITY_TIERS, velocity } from './signals/velocity.ts';

/** The default rule set, in evaluation (and signal) order. */
export const DEFAULT_FAMILIES: readonly SignalFamily[] = [
  deviceEvidence,
  automation,
  userAgent,
  behavior,
  aiming,
  input,
  freshness,
  pow,
  velocity,
  network,
  logins,
  session,
  fanout,
  identity,
  payments,
  email,
  trust,
];

/** Names of rules that are hard automation evidence (classification `bot` whatever the score). */
export function hardRules(families: readonly SignalFamily[]): Set<string> {
  const out = new Set<string>();
  for (const f of families) for (const [rule, info] of Object.entries(f.rules)) if (info.hard) out.add(rule);
  return out;
}

/** A hard rule, or one carried from the browser session (`carried_automation_webdriver`). */
export function isHardRule(hard: ReadonlySet<string>, rule: string): boolean {
  return hard.has(rule) || (rule.startsWith(CARRIED_PREFIX) && hard.has(rule.slice(CARRIED_PREFIX.length)));
}

/**
 * `ruleset_version`: 12 hex of SHA-256 over every rule's name, score and hardness plus the
 * thresholds; custom rules (when present) are hashed in by passing their canonical text.
 */
export function rulesetVersion(families: readonly SignalFamily[], custom = ''): string {
  const hash = createHash('sha256');
  for (const f of families) hash.update(`${f.name}:${JSON.stringify(f.rules)}\n`);
  hash.update(
    JSON.stringify({
      BEHAVIOR,
      AIMING,
      REACH_SHAPE,
      REACH_CUBIC,
      REACH_SWELL,
      VELOCITY_TIERS,
      INPUT,
      PAYMENT_TIERS,
      SUBNET_FAILED_1H,
      SUBNET_FAILED_ACCOUNTS_24H,
      SUBNET_FAILURE_RATIO,
      UA_ROTATION,
      TOKEN_ACCOUNTS,
      TOKEN_EVENTS_1H,
      RECENT_RISK_MIN,
      DEVICE_CARRY_CAP,
      CLUSTER_TIERS,
      PROMO_EMAIL_BONUS,
      METRIC_THRESHOLDS,
      SKEW_STALE_MS,
      SKEW_REPLAY_MS,
      HARDWARE_MIN_DEVICES,
      CARD_TESTING_RUN,
      TRUSTED_DEVICE_AGE_DAYS,
      TRUSTED_DEVICE_EVENTS,
    }),
  );
  hash.update(custom);
  return `rs_${hash.digest('hex').slice(0, 12)}`;
}
