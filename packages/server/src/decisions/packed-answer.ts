import type { DecisionsTable } from '../storage/scoring-schema.ts';
import { isRecord, type SignalsColumn } from './signals-column.ts';

/**
 * The answer of a packed decision (packed-row.ts): rebuilt from the row's columns, so the packed
 * body keeps the answer whole only when the rebuilt one would differ.
 */

/** The columns a stored answer is rebuilt from. */
export const ANSWER_COLUMNS = [
  'id',
  'classification',
  'risk_score',
  'risk_level',
  'action',
  'device_id',
  'signals',
  'decision_ms',
  'created_at',
  'ruleset_version',
] as const satisfies ReadonlyArray<keyof DecisionsTable>;

export type AnswerColumns = Pick<DecisionsTable, (typeof ANSWER_COLUMNS)[number]>;

/** The answer JSON that `columns` and the answer's `identity` and `challenge` make. */
export function rebuiltAnswer(
  columns: AnswerColumns,
  signals: string,
  identity: unknown,
  challenge: unknown,
): string {
  const s = JSON.stringify;
  return (
    `{"classification":${s(columns.classification)},"risk_score":${Number(columns.risk_score)},` +
    `"risk_level":${s(columns.risk_level)},"action":${s(columns.action)},"request_id":${s(columns.id)},` +
    `"device_id":${s(columns.device_id)},"signals":${signals}` +
    (identity === undefined ? '' : `,"identity":${s(identity)}`) +
    (challenge === undefined ? '' : `,"challenge":${s(challenge)}`) +
    `,"decision_ms":${Number(columns.decision_ms)},"timestamp":${s(new Date(Number(columns.created_at)).toISOString())}` +
    `,"ruleset_version":${s(columns.ruleset_version)},"idempotent_replay":false}`
  );
}

/** The keys of an answer `rebuiltAnswer` writes, in its order (identity and challenge when present). */
const ANSWER_HEAD = [
  'classification',
  'risk_score',
  'risk_level',
  'action',
  'request_id',
  'device_id',
  'signals',
];
const ANSWER_TAIL = ['decision_ms', 'timestamp', 'ruleset_version', 'idempotent_replay'];
/** The keys in order: without identity and challenge, with identity, with challenge, with both. */
const ANSWER_ORDERS = [[], ['identity'], ['challenge'], ['identity', 'challenge']].map((middle) => [
  ...ANSWER_HEAD,
  ...middle,
  ...ANSWER_TAIL,
]);

/** Whether `value` is JSON.stringify's own kind of object: no toJSON of its own. */
function plainJson(value: unknown): boolean {
  return isRecord(value) && typeof value.toJSON !== 'function';
}

/**
 * Whether `answer` serialises to what `rebuiltAnswer(columns, signals.json, …)` writes, decided
 * without serialising it: its keys in that order, each value the column's (of the same type), its
 * `signals` the very array the column was built from. False means "not known": compare the texts.
 */
export function answerRebuilds(
  columns: AnswerColumns,
  answer: Record<string, unknown>,
  signals: SignalsColumn,
): boolean {
  if (Object.getPrototypeOf(answer) !== Object.prototype) return false;
  const { identity, challenge } = answer;
  if (identity !== undefined && !plainJson(identity)) return false;
  if (challenge !== undefined && !plainJson(challenge)) return false;
  const order = ANSWER_ORDERS[
    (identity === undefined ? 0 : 1) + (challenge === undefined ? 0 : 2)
  ] as string[];
  let n = 0;
  for (const key in answer) {
    if (key !== order[n]) return false;
    n++;
  }
  if (n !== order.length) return false;
  const str = (v: unknown, column: unknown) => typeof v === 'string' && v === column;
  const num = (v: unknown, column: unknown) => typeof v === 'number' && Number.isFinite(v) && v === column;
  return (
    str(answer.classification, columns.classification) &&
    num(answer.risk_score, columns.risk_score) &&
    str(answer.risk_level, columns.risk_level) &&
    str(answer.action, columns.action) &&
    str(answer.request_id, columns.id) &&
    str(answer.device_id, columns.device_id) &&
    answer.signals === signals.of &&
    signals.json === columns.signals &&
    num(answer.decision_ms, columns.decision_ms) &&
    str(answer.timestamp, new Date(Number(columns.created_at)).toISOString()) &&
    str(answer.ruleset_version, columns.ruleset_version) &&
    answer.idempotent_replay === false
  );
}
