// Sealing a packed decision row (packed-row.ts explains the format): the last step of packing, run
// where the row is committed (the decision writer thread for a SQLite file: decision-commit.mjs), so
// that the request thread does not pay the deflate. Plain JavaScript so that the writer thread can
// run it without a TypeScript loader; packed-row.ts runs the very same functions elsewhere.
import zlib from 'node:zlib';

/**
 * The format rows are sealed in, the first byte of `packed` and `packed_evidence`: 4, with format 4's
 * dictionary (the one the writer is handed: packed-row.ts's PACKED_DICTIONARY). packed-row.ts reads
 * formats 1 to 4.
 */
export const PACKED_FORMAT = 4;

/** `json` deflated with `dictionary`, the format byte first. */
export function sealJson(json, format, dictionary) {
  const body = zlib.deflateRawSync(json, { dictionary });
  const out = new Uint8Array(body.length + 1);
  out[0] = format;
  out.set(body, 1);
  return out;
}

/** A pending body: what packDecision leaves for the writer. */
function isPending(value) {
  return value !== null && typeof value === 'object' && typeof value.body === 'string';
}

/** The `signals` JSON without the descriptions (the packed body holds them). */
export function withoutDescriptions(signals) {
  const parsed = JSON.parse(signals);
  let out = '[';
  for (let i = 0; i < parsed.length; i++) {
    const { rule, score } = parsed[i];
    out += `${i === 0 ? '' : ','}{"rule":${JSON.stringify(rule)},"score":${JSON.stringify(score)}}`;
  }
  return `${out}]`;
}

/**
 * The stored values of a decision whose `packed` is pending: the body and the evidence deflated;
 * with the body's `strip`, `signals` without descriptions (the pending `signals`, built with the
 * column, else rebuilt from it); with `blankUserAgent`, `user_agent` ''
 * (the body's features hold it); `workspace_id` '' (the site's). `get(name)` reads a value, the
 * answer is the values to set. A row packed already (or never) is left as it is: an empty answer.
 */
function sealedValues(get, dictionary) {
  const pending = get('packed');
  if (!isPending(pending)) return {};
  const evidence = get('packed_evidence');
  const out = {
    packed: sealJson(pending.body, PACKED_FORMAT, dictionary),
    packed_evidence: typeof evidence === 'string' ? sealJson(evidence, PACKED_FORMAT, dictionary) : evidence,
    workspace_id: '',
  };
  if (pending.strip)
    out.signals = typeof pending.signals === 'string' ? pending.signals : withoutDescriptions(get('signals'));
  if (pending.blankUserAgent) out.user_agent = '';
  return out;
}

/** The SEALED_COLUMNS whose values sealing may change. */
export const SEALED_COLUMNS = ['packed', 'packed_evidence', 'signals', 'user_agent', 'workspace_id'];

/**
 * The insert parameters of a decision, sealed: `slots` maps each of SEALED_COLUMNS to its index
 * in `params` (decision-insert.ts). `params` is left as it is; a new array is answered.
 */
export function sealDecisionParams(params, slots, dictionary) {
  const values = sealedValues((name) => params[slots[name]], dictionary);
  const out = params.slice();
  for (const name in values) out[slots[name]] = values[name];
  return out;
}

/** A decision row, sealed (a new object; the row itself is left as it is). */
export function sealDecisionRow(row, dictionary) {
  return { ...row, ...sealedValues((name) => row[name], dictionary) };
}
