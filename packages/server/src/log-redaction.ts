import type { Logger } from 'pino';

/**
 * Redaction of the service logger (main.ts): the literal REDACTED_PATHS (`req.headers.cookie`) by
 * pino's own `redact`, which looks at a line only when it logs that top-level field; the wildcard
 * ones (`*.password`: that key one level under any logged field) here, as pino's log formatter
 * and on the bindings of every child logger (withRedactedBindings). pino runs a wildcard path's redactor (a path parse, a selective clone and a
 * JSON.stringify) on every value of every line and every child binding (~3 KB and a few µs per
 * value, each request's child logger included); this looks at each value once and copies only a
 * value that holds a secret key. Same rule as pino's: a key present (`in`) under a top-level
 * value that is an object has its value replaced by the censor.
 */
export const CENSOR = '[redacted]';

/** pino's `redact.paths` (the literal ones) and the keys redacted one level under any field. */
export function splitRedactedPaths(paths: readonly string[]): { literal: string[]; fields: string[] } {
  const literal: string[] = [];
  const fields: string[] = [];
  for (const p of paths) {
    if (p.startsWith('*.') && !p.slice(2).includes('.') && !p.includes('[')) fields.push(p.slice(2));
    else literal.push(p);
  }
  return { literal, fields };
}

/** `obj` with every `fields` key one level under its values censored (`obj` itself when none is). */
export function redactFields(fields: readonly string[]): <T extends object>(obj: T) => T {
  return <T extends object>(obj: T): T => {
    let out: Record<string, unknown> | undefined;
    const source = obj as Record<string, unknown>;
    for (const key in source) {
      const value = source[key];
      if (typeof value !== 'object' || value === null || !Object.hasOwn(source, key)) continue;
      const censored = censoredCopy(value, fields);
      if (censored === value) continue;
      out ??= { ...source };
      out[key] = censored;
    }
    return (out ?? obj) as T;
  };
}

/**
 * `logger` and every child made from it (they inherit `child`) with their bindings redacted as
 * lines are (pino's log formatter sees lines only; a child's bindings are serialised once, when
 * it is made).
 */
export function withRedactedBindings(logger: Logger, redact: <T extends object>(obj: T) => T): Logger {
  const child = logger.child;
  logger.child = function redactedChild(this: Logger, bindings, options) {
    return child.call(this, redact(bindings), options);
  } as Logger['child'];
  return logger;
}

/** `value` with its `fields` keys censored: a copy of the same prototype, or `value` itself. */
function censoredCopy(value: object, fields: readonly string[]): object {
  let copy: Record<string, unknown> | undefined;
  for (const field of fields) {
    if (!(field in value)) continue;
    if (!copy) {
      copy = Object.create(Object.getPrototypeOf(value), Object.getOwnPropertyDescriptors(value)) as Record<
        string,
        unknown
      >;
    }
    Object.defineProperty(copy, field, {
      value: CENSOR,
      enumerable: true,
      writable: true,
      configurable: true,
    });
  }
  return copy ?? value;
}
