import type { Outcome } from './api.ts';
import type { Family } from './types.ts';

/**
 * Per-family tallies. A bot event is caught when classification is `bot` or the action is
 * `block` or `challenge`; a human event is a false positive when classification is `bot` or the
 * action is `block` (challenge/review on a human is friction, counted apart).
 */
export interface SurfaceTally {
  events: number;
  hits: number;
}

export class FamilyStats {
  events = 0;
  hits = 0;
  friction = 0;
  scoreSum = 0;
  /** Missed bots, flagged humans and humans with friction, kept for `WARDEN_EVAL_MISSES` (at most 500 per family). */
  readonly misses: Array<{
    surface: string;
    score: number;
    action: string;
    classification: string;
    signals: string;
  }> = [];
  readonly errors = new Map<string, number>();
  readonly signals = new Map<string, number>();
  readonly actions = new Map<string, number>();
  readonly surfaces: Record<'browser' | 'server', SurfaceTally> = {
    browser: { events: 0, hits: 0 },
    server: { events: 0, hits: 0 },
  };

  constructor(readonly family: Family) {}

  add(outcome: Outcome): void {
    if (!outcome.ok) {
      const key = `${outcome.status} ${outcome.code}`;
      this.errors.set(key, (this.errors.get(key) ?? 0) + 1);
      return;
    }
    const d = outcome.decision;
    const hit =
      this.family.label === 'bot'
        ? d.classification === 'bot' || d.action === 'block' || d.action === 'challenge'
        : d.classification === 'bot' || d.action === 'block';
    this.events++;
    this.scoreSum += d.risk_score;
    if (hit) this.hits++;
    const friction =
      this.family.label === 'human' && !hit && (d.action === 'challenge' || d.action === 'review');
    if ((hit === (this.family.label === 'human') || friction) && this.misses.length < 500) {
      this.misses.push({
        surface: outcome.surface,
        score: d.risk_score,
        action: d.action,
        classification: d.classification,
        signals: d.signals.map((x) => `${x.rule}:${x.score}`).join(' '),
      });
    }
    if (friction) this.friction++;
    const s = this.surfaces[outcome.surface];
    s.events++;
    if (hit) s.hits++;
    this.actions.set(d.action, (this.actions.get(d.action) ?? 0) + 1);
    for (const rule of new Set(d.signals.filter((x) => x.score !== 0).map((x) => x.rule))) {
      this.signals.set(rule, (this.signals.get(rule) ?? 0) + 1);
    }
  }

  addError(code: string): void {
    this.errors.set(code, (this.errors.get(code) ?? 0) + 1);
  }

  get errorCount(): number {
    let n = 0;
    for (const v of this.errors.values()) n += v;
    return n;
  }

  rate(): number {
    return this.events === 0 ? Number.NaN : this.hits / this.events;
  }

  /** Most frequent signals: "rule 87%". */
  topSignals(n: number): string[] {
    return [...this.signals.entries()]
      .sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))
      .slice(0, n)
      .map(([rule, c]) => `${rule} ${Math.round((100 * c) / Math.max(1, this.events))}%`);
  }
}
