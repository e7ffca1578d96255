import { withoutDescriptions } from './packed-seal.mjs';

/**
 * The `signals` column of a decision (packed-row.ts): built once from the engine's signals, with
 * and without the descriptions that format 2 keeps in the packed body.
 */

const s = JSON.stringify;

export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** `signals` stored without descriptions, with `descriptions` put back, as the column held it. */
export function signalsWith(stored: string, descriptions: readonly string[]): string {
  const parsed = JSON.parse(stored) as Array<{ rule: string; score: number }>;
  return s(parsed.map((p, i) => ({ rule: p.rule, score: p.score, description: descriptions[i] })));
}

/** The descriptions of `signals` when the column rebuilds exactly without them; undefined otherwise. */
export function strippable(signals: string): string[] | undefined {
  const parsed = JSON.parse(signals) as unknown;
  if (!Array.isArray(parsed) || parsed.length === 0) return undefined;
  const descriptions: string[] = [];
  for (const item of parsed) {
    if (!isRecord(item) || typeof item.description !== 'string') return undefined;
    descriptions.push(item.description);
  }
  return signalsWith(s(parsed.map((p) => ({ rule: p.rule, score: p.score }))), descriptions) === signals
    ? descriptions
    : undefined;
}

/**
 * The `signals` column of a decision, built once from the engine's signals: `json` (the column as
 * recorded: JSON.stringify of them), and, when the column rebuilds exactly without the
 * descriptions (as `strippable` decides), `descriptions` and `stripped` (the column as stored).
 * The usual signal ({rule, score, description}, in that order, a string, a finite number and a
 * string) is written out directly; any other falls back to stringify and `strippable`, so the text
 * is the same either way.
 */
export interface SignalsColumn {
  /** The signals the column was built from. */
  of: readonly unknown[];
  json: string;
  descriptions?: string[];
  stripped?: string;
}

/** A signal that JSON.stringify writes as `{"rule":…,"score":…,"description":…}` and nothing else. */
function isPlainSignal(item: unknown): item is { rule: string; score: number; description: string } {
  if (!isRecord(item) || Object.getPrototypeOf(item) !== Object.prototype) return false;
  const { rule, score, description } = item;
  if (typeof rule !== 'string' || typeof score !== 'number' || typeof description !== 'string') return false;
  if (!Number.isFinite(score)) return false;
  let n = 0;
  for (const key in item) {
    if (key !== (n === 0 ? 'rule' : n === 1 ? 'score' : n === 2 ? 'description' : '')) return false;
    n++;
  }
  return n === 3 && Object.getOwnPropertySymbols(item).length === 0;
}

export function signalsColumn(signals: readonly unknown[]): SignalsColumn {
  if (signals.length === 0 || !signals.every(isPlainSignal)) {
    const json = s(signals);
    const descriptions = strippable(json);
    return descriptions
      ? { of: signals, json, descriptions, stripped: withoutDescriptions(json) }
      : { of: signals, json };
  }
  let json = '[';
  let stripped = '[';
  const descriptions: string[] = [];
  for (let i = 0; i < signals.length; i++) {
    const { rule, score, description } = signals[i] as { rule: string; score: number; description: string };
    const head = `${i === 0 ? '' : ','}{"rule":${s(rule)},"score":${s(score)}`;
    stripped += `${head}}`;
    json += `${head},"description":${s(description)}}`;
    descriptions.push(description);
  }
  return { of: signals, json: `${json}]`, descriptions, stripped: `${stripped}]` };
}
