import zlib from 'node:zlib';
import type { DecisionsTable } from '../storage/scoring-schema.ts';
import { PACKED_DICTIONARY_V1 } from './packed-dictionary.ts';

/**
 * The stored form of a decision's JSON parts (migration 022). A decision used to keep its features,
 * evidence, rule input and answer as four JSON texts (~5–6 KB a row, much of it repeated); a packed
 * row keeps:
 * - `features`: only the keys SQL reads (FEATURE_FACETS: the decisions list's country/ASN/subnet
 *   filters, the overview's top lists, the rule hit counts), as JSON, queried as before;
 * - `packed`: the rest of the features, the rule input and what of the answer no column holds
 *   (identity unless it is the features' own, a challenge), as deflated JSON with a preset
 *   dictionary (packed-dictionary.ts), one format byte first;
 * - `packed_evidence`: the normalised evidence, the same way (its behaviour summary, when it is the
 *   features' own, by reference), apart so that the evidence retention can drop it alone;
 * - `evidence` and `response` empty, `rule_input` null: the answer is rebuilt from the columns.
 * Rows recorded before it keep their JSON columns (`packed` null) and read as they are. Reading
 * gives back the very strings the decision was recorded with: `packDecision` checks the rebuilt
 * answer against the recorded one and stores the answer whole when they differ.
 */

const FORMAT_1 = 1;
const DICTIONARY = Buffer.from(PACKED_DICTIONARY_V1);
const s = JSON.stringify;
/** A key whose value is kept elsewhere (a facet column, the features' own behaviour summary). */
const ELSEWHERE = 0;

/** Features keys kept in the `features` column for SQL (search.ts, top-values.ts, rule-queries.ts). */
export const FEATURE_FACETS = ['ip', 'subnet', 'custom_rules'] as const;

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

/** The columns `unpackDecision` reads: the answer's, the JSON parts and the packed ones. */
export const PACKED_COLUMNS = [
  ...ANSWER_COLUMNS,
  'features',
  'evidence',
  'response',
  'rule_input',
  'packed',
  'packed_evidence',
] as const satisfies ReadonlyArray<keyof DecisionsTable>;

type AnswerColumns = Pick<DecisionsTable, (typeof ANSWER_COLUMNS)[number]>;
export type PackedColumns = Pick<DecisionsTable, (typeof PACKED_COLUMNS)[number]>;

/** The JSON parts of a decision, as recorded. */
export interface DecisionParts {
  features: string;
  evidence: string;
  response: string;
  rule_input: string | null;
}

/** The packed body, format 1. */
interface PackedBody {
  /** The features, FEATURE_FACETS held by the `features` column. */
  f: Record<string, unknown>;
  /** The rule input, null when none was recorded. */
  r: unknown;
  /** The answer's identity: absent when it has none, ELSEWHERE when it is `features.identity`. */
  i?: unknown;
  /** The answer's challenge, when it has one. */
  c?: unknown;
  /** The whole answer, when it is not what the columns rebuild. */
  a?: string;
}

/**
 * The engine hands the same object to the features and the evidence (or the answer): compare by
 * reference first, and serialise both only when they are copies.
 */
function sameJson(a: unknown, b: unknown): boolean {
  return a === b || s(a) === s(b);
}

function deflate(json: string): Uint8Array {
  const body = zlib.deflateRawSync(json, { dictionary: DICTIONARY });
  const out = new Uint8Array(body.length + 1);
  out[0] = FORMAT_1;
  out.set(body, 1);
  return out;
}

function inflate(packed: Uint8Array): string {
  if (packed[0] !== FORMAT_1) throw new Error(`packed decision of unknown format ${packed[0]}`);
  return zlib.inflateRawSync(packed.subarray(1), { dictionary: DICTIONARY }).toString('utf8');
}

/** The answer JSON that `columns` and the answer's `identity` and `challenge` make. */
function rebuiltAnswer(columns: AnswerColumns, identity: unknown, challenge: unknown): string {
  const s = JSON.stringify;
  return (
    `{"classification":${s(columns.classification)},"risk_score":${Number(columns.risk_score)},` +
    `"risk_level":${s(columns.risk_level)},"action":${s(columns.action)},"request_id":${s(columns.id)},` +
    `"device_id":${s(columns.device_id)},"signals":${columns.signals}` +
    (identity === undefined ? '' : `,"identity":${s(identity)}`) +
    (challenge === undefined ? '' : `,"challenge":${s(challenge)}`) +
    `,"decision_ms":${Number(columns.decision_ms)},"timestamp":${s(new Date(Number(columns.created_at)).toISOString())}` +
    `,"ruleset_version":${s(columns.ruleset_version)},"idempotent_replay":false}`
  );
}

/**
 * The stored columns of a decision's JSON parts: `columns` are its answer columns as they will be
 * stored, `parts` the objects it was recorded with.
 */
export function packDecision(
  columns: AnswerColumns,
  parts: {
    features: Record<string, unknown>;
    evidence: Record<string, unknown>;
    ruleInput: unknown;
    answer: Record<string, unknown>;
  },
): Pick<DecisionsTable, 'features' | 'evidence' | 'response' | 'rule_input' | 'packed' | 'packed_evidence'> {
  const facets: Record<string, unknown> = {};
  const rest: Record<string, unknown> = { ...parts.features };
  for (const key of FEATURE_FACETS) {
    if (key in rest) {
      facets[key] = rest[key];
      rest[key] = ELSEWHERE;
    }
  }
  const body: PackedBody = { f: rest, r: parts.ruleInput ?? null };
  const { identity, challenge } = parts.answer;
  if (identity !== undefined) body.i = sameJson(identity, parts.features.identity) ? ELSEWHERE : identity;
  if (challenge !== undefined) body.c = challenge;
  const answer = s(parts.answer);
  if (rebuiltAnswer(columns, identity, challenge) !== answer) body.a = answer;
  const evidence = { ...parts.evidence };
  if ('behavior' in evidence && sameJson(evidence.behavior, parts.features.behavior))
    evidence.behavior = ELSEWHERE;
  return {
    features: s(facets),
    evidence: '',
    response: '',
    rule_input: null,
    packed: deflate(s(body)),
    packed_evidence: Object.keys(evidence).length === 0 ? null : deflate(s(evidence)),
  };
}

/**
 * A stored decision's JSON parts as recorded. A packed row whose evidence the retention removed
 * reads as evidence `{}`.
 */
export function unpackDecision(row: PackedColumns): DecisionParts {
  if (!row.packed) {
    return {
      features: row.features,
      evidence: row.evidence,
      response: row.response,
      rule_input: row.rule_input ?? null,
    };
  }
  const body = JSON.parse(inflate(row.packed)) as PackedBody;
  const facets = JSON.parse(row.features) as Record<string, unknown>;
  const features = body.f;
  for (const key of FEATURE_FACETS) if (features[key] === ELSEWHERE) features[key] = facets[key];
  const identity = body.i === ELSEWHERE ? features.identity : body.i;
  let evidence = '{}';
  if (row.packed_evidence) {
    const parsed = JSON.parse(inflate(row.packed_evidence)) as Record<string, unknown>;
    if (parsed.behavior === ELSEWHERE) parsed.behavior = features.behavior;
    evidence = s(parsed);
  }
  return {
    features: s(features),
    evidence,
    response: body.a ?? rebuiltAnswer(row, identity, body.c),
    rule_input: body.r === null ? null : s(body.r),
  };
}

/** `row` with its JSON parts as recorded (the packed columns left out). */
export function withParts<R extends PackedColumns>(
  row: R,
): Omit<R, 'packed' | 'packed_evidence'> & DecisionParts {
  const { packed: _packed, packed_evidence: _evidence, ...rest } = row;
  return { ...rest, ...unpackDecision(row) };
}
