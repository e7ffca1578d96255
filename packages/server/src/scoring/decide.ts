import type { Action, Classification, EventType, RiskLevel, Signal } from './engine-types.ts';

/** SPEC §2: the sum of the signal scores, rounded and clamped to 0–100. */
export function riskScore(signals: readonly Signal[]): number {
  let sum = 0;
  for (const s of signals) sum += s.score;
  return Math.min(100, Math.max(0, Math.round(sum)));
}

export function riskLevel(score: number): RiskLevel {
  if (score >= 85) return 'critical';
  if (score >= 60) return 'high';
  if (score >= 30) return 'medium';
  return 'low';
}

export function classify(level: RiskLevel, hardAutomation: boolean): Classification {
  if (hardAutomation || level === 'critical') return 'bot';
  return level === 'low' ? 'human' : 'suspicious';
}

const BY_LEVEL: Record<RiskLevel, Action> = {
  low: 'allow',
  medium: 'review',
  high: 'challenge',
  critical: 'block',
};

/**
 * Default action by level; `page_view` never answers review (medium → allow); a bot is never
 * allowed (challenge, or block when critical).
 */
export function defaultAction(
  level: RiskLevel,
  classification: Classification,
  eventType: EventType,
): Action {
  let action = BY_LEVEL[level];
  if (eventType === 'page_view' && action === 'review') action = 'allow';
  return enforceBotFloor(action, classification);
}

/** Whatever chose the action (default or a custom rule), `bot` never gets allow or review. */
export function enforceBotFloor(action: Action, classification: Classification): Action {
  if (classification === 'bot' && (action === 'allow' || action === 'review')) return 'challenge';
  return action;
}
