// Canonical JSON and the idempotency body hash that keys recorded before body-digest.mjs carry
// (SPEC §3: bodies compared after parsing, in canonical form); idempotency.ts computes it only to
// compare a body with such a key.
import { createHash } from 'node:crypto';

/** JSON with object keys sorted at every depth: equal after parsing ⇔ equal text. */
export function canonicalJson(value) {
  // Numbers and strings first: behaviour samples make most of a body's values numbers.
  if (typeof value === 'number') return Number.isFinite(value) ? String(value) : 'null';
  if (typeof value === 'string') return JSON.stringify(value);
  if (value === null || typeof value !== 'object') return JSON.stringify(value) ?? 'null';
  if (Array.isArray(value)) {
    let out = '[';
    for (let i = 0; i < value.length; i++) {
      if (i > 0) out += ',';
      const item = value[i];
      out += item === undefined ? 'null' : canonicalJson(item);
    }
    return `${out}]`;
  }
  let out = '{';
  for (const key of Object.keys(value).sort()) {
    const item = value[key];
    if (item === undefined) continue;
    if (out.length > 1) out += ',';
    out += `${JSON.stringify(key)}:${canonicalJson(item)}`;
  }
  return `${out}}`;
}

/** SHA-256 (hex) of the canonical JSON of a parsed body. */
export function canonicalBodyHash(body) {
  return createHash('sha256').update(canonicalJson(body)).digest('hex');
}
