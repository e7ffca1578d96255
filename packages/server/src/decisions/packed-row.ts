import zlib from 'node:zlib';
import type { DecisionsTable } from '../storage/scoring-schema.ts';
import { ANSWER_COLUMNS, type AnswerColumns, answerRebuilds, rebuiltAnswer } from './packed-answer.ts';
import {
  PACKED_DICTIONARY_V1,
  PACKED_DICTIONARY_V2,
  PACKED_DICTIONARY_V3,
  PACKED_DICTIONARY_V4,
} from './packed-dictionary.ts';
import { PACKED_FORMAT, type PendingPack, sealDecisionRow } from './packed-seal.mjs';
import { isRecord, type SignalsColumn, signalsWith, strippable } from './signals-column.ts';

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
 *
 * Format 2 (issue 26, the first byte of `packed` says which) stores less again, nothing lost:
 * - `signals` keeps each signal's rule and score (all SQL reads); the descriptions are in the body;
 * - `user_agent` is '' when the features' `user_agent` is the same text (the body holds it once);
 * - `workspace_id` is '': a decision's workspace is its site's;
 * - a value of the body that a column holds (account, e-mail, IP, device, payment hash, promo
 *   code, cluster, user agent) is kept by reference (the body's `x` lists which);
 * - a dictionary with the catalogue's signal descriptions (packed-dictionary.ts).
 * Format 3 (issue 26) keeps less in the `features` column: of an `ip` object only IP_FACETS (the
 * body keeps the object, the moved keys ELSEWHERE in their place), the `subnet` only with an IPv6
 * address; and seals with a dictionary of the current engine's bodies (packed-dictionary.ts). Reading
 * is the same for formats 2 and 3: a facet ELSEWHERE in the body is the column's, an object in both
 * takes the column's keys.
 * Format 4 (issue 27) is format 3 sealed with a smaller dictionary (packed-dictionary.ts: ~12.6 KB
 * instead of 29 KB): deflate hashes its whole dictionary at the start of each stream, twice a row,
 * and that was most of the writer's sealing. Reading is the same as format 3's.
 * Packing is split in two: `packDecision` (the request thread) builds the body's JSON and leaves it
 * pending in `packed`; the writer seals it (packed-seal.mjs: deflates the body and the evidence and
 * sets the columns above) where the row is committed, for a SQLite file on the writer thread.
 */

/** Each format's dictionary, by the format byte. */
const DICTIONARIES: ReadonlyMap<number, Buffer> = new Map([
  [1, Buffer.from(PACKED_DICTIONARY_V1)],
  [2, Buffer.from(PACKED_DICTIONARY_V2)],
  [3, Buffer.from(PACKED_DICTIONARY_V3)],
  [4, Buffer.from(PACKED_DICTIONARY_V4)],
]);
/** The dictionary of the format rows are sealed in (PACKED_FORMAT), as the writer thread receives it (workerData). */
export const PACKED_DICTIONARY = PACKED_DICTIONARY_V4;
const SEALING_DICTIONARY = DICTIONARIES.get(PACKED_FORMAT) as Buffer;
const s = JSON.stringify;
/** A key whose value is kept elsewhere (a facet column, the features' own behaviour summary). */
const ELSEWHERE = 0;

/** Features keys kept in the `features` column for SQL (search.ts, top-values.ts, rule-queries.ts). */
export const FEATURE_FACETS = ['ip', 'subnet', 'custom_rules'] as const;

/**
 * Format 3: the keys of `features.ip` SQL reads (search.ts: country and ASN; top-values.ts: the
 * network's name); its other keys (`hosting`) stay in the body.
 */
const IP_FACETS = ['asn', 'org', 'country'] as const;

/**
 * The facets of `features` (the `features` column) and the features without them (the body's `f`),
 * format 3: a facet held by the column is ELSEWHERE in the body; of an `ip` object, only IP_FACETS
 * move (the body keeps the object, each moved key ELSEWHERE in its place, so the order stays); the
 * `subnet` moves only with an IPv6 address (the only one SQL reads it for: search.ts, cluster-queries.ts;
 * an IPv4 /24 is matched on `ip_address`).
 */
function facetsOf(
  features: Record<string, unknown>,
  ipAddress: string,
): { facets: Record<string, unknown>; rest: Record<string, unknown> } {
  const facets: Record<string, unknown> = {};
  const rest: Record<string, unknown> = { ...features };
  for (const key of FEATURE_FACETS) {
    if (!(key in rest)) continue;
    const value = rest[key];
    if (key === 'subnet' && !ipAddress.includes(':')) continue;
    if (key === 'ip' && isRecord(value)) {
      const held: Record<string, unknown> = {};
      const left: Record<string, unknown> = { ...value };
      for (const k of IP_FACETS) {
        if (!(k in value)) continue;
        held[k] = value[k];
        left[k] = ELSEWHERE;
      }
      facets.ip = held;
      rest.ip = left;
      continue;
    }
    facets[key] = value;
    rest[key] = ELSEWHERE;
  }
  return { facets, rest };
}

/** The columns the body of format 2 refers to instead of repeating them. */
const REFERRED_COLUMNS = [
  'account_id',
  'email',
  'ip_address',
  'user_agent',
  'payment_hash',
  'promo_code',
  'cluster_id',
] as const satisfies ReadonlyArray<keyof DecisionsTable>;

/** The columns `unpackDecision` reads: the answer's, the referred ones, the JSON parts and the packed ones. */
export const PACKED_COLUMNS = [
  ...ANSWER_COLUMNS,
  ...REFERRED_COLUMNS,
  'features',
  'evidence',
  'response',
  'rule_input',
  'packed',
  'packed_evidence',
] as const satisfies ReadonlyArray<keyof DecisionsTable>;

type ReferredColumns = Pick<DecisionsTable, (typeof REFERRED_COLUMNS)[number]>;
export type PackedColumns = Pick<DecisionsTable, (typeof PACKED_COLUMNS)[number]>;

/**
 * A decision row on its way to the writer: `packed` pending (its body's JSON, packed-seal.mjs),
 * `packed_evidence` the evidence's JSON; the writer seals it before the insert.
 */
export type DecisionRecord = Omit<DecisionsTable, 'packed' | 'packed_evidence'> & {
  packed?: PendingPack | Uint8Array | null | undefined;
  packed_evidence?: string | Uint8Array | null | undefined;
};

/** The JSON parts of a decision, as recorded. */
export interface DecisionParts {
  features: string;
  evidence: string;
  response: string;
  rule_input: string | null;
}

/** The packed body, formats 1 and 2. */
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
  /** Format 2: the signals' descriptions, in order, when `signals` is stored without them. */
  d?: string[];
  /** Format 2: the references (REFERENCES' codes) whose value a column holds. */
  x?: string[];
  /** Format 2: the evidence's `device.id` is the `device_id` column. */
  e?: 1;
  /** Format 2: `user_agent` is stored '': the features' `user_agent` is the decision's. */
  u?: 1;
}

/**
 * Where format 2's body refers to a column: code → the path of the object holding the value in the
 * body (its features `f`, its rule input `r`), the value's key there and the column.
 */
const REFERENCES: Record<string, { path: readonly string[]; key: string; column: ReferredColumn }> = {
  fd: { path: ['f'], key: 'device_id', column: 'device_id' },
  fn: { path: ['f'], key: 'now_ms', column: 'created_at' },
  fh: { path: ['f', 'history'], key: 'device_first_seen', column: 'created_at' },
  fc: { path: ['f', 'identity'], key: 'cluster_id', column: 'cluster_id' },
  rd: { path: ['r'], key: 'device_id', column: 'device_id' },
  ri: { path: ['r'], key: 'ip', column: 'ip_address' },
  rc: { path: ['r', 'identity'], key: 'cluster_id', column: 'cluster_id' },
  ea: { path: ['r', 'event'], key: 'account_id', column: 'account_id' },
  ee: { path: ['r', 'event'], key: 'email', column: 'email' },
  ei: { path: ['r', 'event'], key: 'ip', column: 'ip_address' },
  eu: { path: ['r', 'event'], key: 'user_agent', column: 'user_agent' },
  ep: { path: ['r', 'event'], key: 'payment_hash', column: 'payment_hash' },
  eo: { path: ['r', 'event'], key: 'promo_code', column: 'promo_code' },
};
type ReferredColumn = (typeof REFERRED_COLUMNS)[number] | 'device_id' | 'created_at';
/** REFERENCES as a list, in their order (the body's `x`). */
const REFERENCE_LIST = Object.entries(REFERENCES).map(([code, ref]) => ({
  code,
  ...ref,
  /** Each prefix of `path`, joined by '.'. */
  prefixes: ref.path.map((_, i) => ref.path.slice(0, i + 1).join('.')),
}));

/** The object at `path` of the body, if there is one. */
function holderAt(body: PackedBody, path: readonly string[]): Record<string, unknown> | undefined {
  let at: unknown = body;
  for (const key of path) at = isRecord(at) ? at[key] : undefined;
  return isRecord(at) ? at : undefined;
}

/**
 * The object at `ref.path`, copied along the way where `copied` (the paths copied already, as
 * `ref.prefixes` names them) does not have it yet: the engine's objects are shared, never changed.
 */
function copiedAt(
  body: PackedBody,
  ref: { path: readonly string[]; prefixes: readonly string[] },
  copied: string[],
): Record<string, unknown> {
  let parent = body as unknown as Record<string, unknown>;
  for (let i = 0; i < ref.path.length; i++) {
    const key = ref.path[i] as string;
    const where = ref.prefixes[i] as string;
    if (copied.includes(where)) {
      parent = parent[key] as Record<string, unknown>;
      continue;
    }
    const copy = { ...(parent[key] as Record<string, unknown>) };
    parent[key] = copy;
    parent = copy;
    copied.push(where);
  }
  return parent;
}

/**
 * The engine hands the same object to the features and the evidence (or the answer): compare by
 * reference first, and serialise both only when they are copies.
 */
function sameJson(a: unknown, b: unknown): boolean {
  return a === b || s(a) === s(b);
}

function inflate(packed: Uint8Array): string {
  const dictionary = DICTIONARIES.get(packed[0] as number);
  if (!dictionary) throw new Error(`packed decision of unknown format ${packed[0]}`);
  return zlib.inflateRawSync(packed.subarray(1), { dictionary }).toString('utf8');
}

/**
 * Replaces the body's values that a column holds by ELSEWHERE (in copies: the engine's objects are
 * shared with the answer and the evidence) and answers the codes of those replaced.
 */
function referred(body: PackedBody, columns: Record<ReferredColumn, unknown>): string[] {
  const codes: string[] = [];
  const copied: string[] = [];
  for (const ref of REFERENCE_LIST) {
    const value = holderAt(body, ref.path)?.[ref.key];
    if (value === '' || value === null || value === undefined || value !== columns[ref.column]) continue;
    copiedAt(body, ref, copied)[ref.key] = ELSEWHERE;
    codes.push(ref.code);
  }
  return codes;
}

/**
 * The columns of a decision's JSON parts, pending: `columns` are its columns as they will be
 * stored, `parts` the objects it was recorded with. The writer seals the row (packed-seal.mjs);
 * `sealedDecision` does it here (fixtures, benchmarks).
 */
export function packDecision(
  columns: AnswerColumns & ReferredColumns,
  parts: {
    features: Record<string, unknown>;
    evidence: Record<string, unknown>;
    ruleInput: unknown;
    answer: Record<string, unknown>;
    /** `columns.signals` as `signalsColumn` built it: spares parsing it again. */
    signals?: SignalsColumn;
  },
): Pick<DecisionRecord, 'features' | 'evidence' | 'response' | 'rule_input' | 'packed' | 'packed_evidence'> {
  const { facets, rest } = facetsOf(parts.features, columns.ip_address);
  const ruleInput = parts.ruleInput ?? null;
  const body: PackedBody = { f: rest, r: isRecord(ruleInput) ? { ...ruleInput } : ruleInput };
  const { identity, challenge } = parts.answer;
  if (identity !== undefined) body.i = sameJson(identity, parts.features.identity) ? ELSEWHERE : identity;
  if (challenge !== undefined) body.c = challenge;
  const signals = parts.signals;
  if (!signals || !answerRebuilds(columns, parts.answer, signals)) {
    const answer = s(parts.answer);
    if (rebuiltAnswer(columns, columns.signals, identity, challenge) !== answer) body.a = answer;
  }
  const descriptions = signals ? signals.descriptions : strippable(columns.signals);
  if (descriptions) body.d = descriptions;
  const codes = referred(body, columns as unknown as Record<ReferredColumn, unknown>);
  if (codes.length > 0) body.x = codes;
  const evidence = { ...parts.evidence };
  if ('behavior' in evidence && sameJson(evidence.behavior, parts.features.behavior))
    evidence.behavior = ELSEWHERE;
  if (isRecord(evidence.device) && evidence.device.id === columns.device_id && columns.device_id !== '') {
    evidence.device = { ...evidence.device, id: ELSEWHERE };
    body.e = 1;
  }
  const blankUserAgent = columns.user_agent !== '' && rest.user_agent === columns.user_agent;
  if (blankUserAgent) body.u = 1;
  return {
    features: s(facets),
    evidence: '',
    response: '',
    rule_input: null,
    packed: {
      body: s(body),
      strip: descriptions !== undefined,
      ...(signals?.stripped !== undefined ? { signals: signals.stripped } : {}),
      blankUserAgent,
    },
    packed_evidence: Object.keys(evidence).length === 0 ? null : s(evidence),
  };
}

/** A decision record sealed here (packed-seal.mjs): what the writer stores. */
export function sealedDecision<R extends Pick<DecisionRecord, 'packed' | 'packed_evidence'>>(
  row: R,
): Omit<R, 'packed' | 'packed_evidence'> & Pick<DecisionsTable, 'packed' | 'packed_evidence'> {
  return sealDecisionRow(row, SEALING_DICTIONARY) as never;
}

/** A stored decision's columns and JSON parts as recorded. */
export interface UnpackedDecision extends DecisionParts {
  signals: string;
  user_agent: string;
}

/**
 * A stored decision's JSON parts as recorded, with its `signals` and `user_agent` as recorded. A
 * packed row whose evidence the retention removed reads as evidence `{}`.
 */
export function unpackDecision(row: PackedColumns): UnpackedDecision {
  if (!row.packed) {
    return {
      features: row.features,
      evidence: row.evidence,
      response: row.response,
      rule_input: row.rule_input ?? null,
      signals: row.signals,
      user_agent: row.user_agent,
    };
  }
  const body = JSON.parse(inflate(row.packed)) as PackedBody;
  const facets = JSON.parse(row.features) as Record<string, unknown>;
  const features = body.f;
  for (const key of FEATURE_FACETS) {
    const held = facets[key];
    if (features[key] === ELSEWHERE) features[key] = held;
    else if (isRecord(held) && isRecord(features[key])) Object.assign(features[key], held); // format 3's `ip`
  }
  const userAgent = body.u ? (features.user_agent as string) : row.user_agent;
  const columns = { ...row, user_agent: userAgent };
  for (const code of body.x ?? []) {
    const ref = REFERENCES[code];
    const holder = ref && holderAt(body, ref.path);
    if (ref && holder)
      holder[ref.key] = ref.column === 'created_at' ? Number(row.created_at) : columns[ref.column];
  }
  const signals = body.d ? signalsWith(row.signals, body.d) : row.signals;
  const identity = body.i === ELSEWHERE ? features.identity : body.i;
  let evidence = '{}';
  if (row.packed_evidence) {
    const parsed = JSON.parse(inflate(row.packed_evidence)) as Record<string, unknown>;
    if (parsed.behavior === ELSEWHERE) parsed.behavior = features.behavior;
    if (body.e && isRecord(parsed.device)) parsed.device.id = row.device_id;
    evidence = s(parsed);
  }
  return {
    features: s(features),
    evidence,
    response: body.a ?? rebuiltAnswer(row, signals, identity, body.c),
    rule_input: body.r === null ? null : s(body.r),
    signals,
    user_agent: userAgent,
  };
}

/** `row` with its JSON parts as recorded (the packed columns left out). */
export function withParts<R extends PackedColumns>(
  row: R,
): Omit<R, 'packed' | 'packed_evidence'> & UnpackedDecision {
  const { packed: _packed, packed_evidence: _evidence, ...rest } = row;
  return { ...rest, ...unpackDecision(row) };
}
