import { RE2JS, RE2JSException } from 're2js';

/**
 * Regular expressions written by users (CEL `matches`) run on RE2 (re2js, a pure-JavaScript port):
 * matching time is linear in the input, so no pattern can backtrack catastrophically. RE2 has no
 * backreferences and no lookaround; such patterns are refused with the reason.
 */
export type RegexResult = { ok: true; regex: RE2JS } | { ok: false; message: string };

export const RE2_HINT =
  'rules use RE2 syntax: no backreferences (\\1) and no lookaround ((?=, (?!, (?<=, (?<!)';

export function compileRegex(pattern: string): RegexResult {
  try {
    return { ok: true, regex: RE2JS.compile(pattern) };
  } catch (err) {
    const reason = err instanceof RE2JSException ? err.message : String(err);
    return {
      ok: false,
      message: `unsupported regular expression ${JSON.stringify(pattern)}: ${reason} (${RE2_HINT})`,
    };
  }
}

/** Steps charged to a rule for one match: linear in the input, as the match itself. */
export function matchCost(input: string, regex: RE2JS): number {
  return 1 + Math.ceil((input.length * Math.min(regex.programSize(), 1000)) / 256);
}
