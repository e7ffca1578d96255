import { Environment } from '@marcbachmann/cel-js';
import type { ErrorDetail } from '../errors.ts';
import type { ListMatcher } from './lists.ts';

/**
 * The CEL environment of custom rules. Variables (all maps; see docs/rules.md):
 *   event     — the event context: type, account_id, email, order_amount, payment_hash, promo_code,
 *               ip, user_agent, request_url, login_succeeded, surface
 *   features  — numbers and flags computed for the event (velocity, distinct counts, …)
 *   signals   — rule name → score of the default signals that fired
 *   identity  — cluster counts (zeros when the plan has no clusters)
 *   device    — device_id and evidence summary
 *   ip        — address, version, and (when known) country/asn/datacenter
 *   score     — the default risk score before custom rules (double)
 * Functions: inList(name, value), ipInList(name, ip), emailDomain(email).
 */
export interface RuleVariables {
  event: Record<string, unknown>;
  features: Record<string, unknown>;
  signals: Record<string, number>;
  identity: Record<string, unknown>;
  device: Record<string, unknown>;
  ip: Record<string, unknown>;
  score: number;
}

export const RULE_VARIABLES = ['event', 'features', 'signals', 'identity', 'device', 'ip', 'score'] as const;

/** The list lookups of the evaluation in progress (CEL functions are registered once, so they read this). */
let activeLists: ListMatcher | null = null;

export function withLists<T>(lists: ListMatcher, run: () => T): T {
  const previous = activeLists;
  activeLists = lists;
  try {
    return run();
  } finally {
    activeLists = previous;
  }
}

function emailDomain(email: string): string {
  const at = email.lastIndexOf('@');
  return at === -1 ? '' : email.slice(at + 1).toLowerCase();
}

const environment = new Environment({
  limits: { maxAstNodes: 2000, maxDepth: 50, maxListElements: 500, maxMapEntries: 200, maxCallArguments: 8 },
})
  .registerVariable('event', 'map')
  .registerVariable('features', 'map')
  .registerVariable('signals', 'map')
  .registerVariable('identity', 'map')
  .registerVariable('device', 'map')
  .registerVariable('ip', 'map')
  .registerVariable('score', 'double')
  .registerFunction(
    'inList(string, string): bool',
    (name: string, value: string) => activeLists?.has(name, value) ?? false,
  )
  .registerFunction(
    'ipInList(string, string): bool',
    (name: string, value: string) => activeLists?.has(name, value) ?? false,
  )
  .registerFunction('emailDomain(string): string', emailDomain);

export type CompiledExpression = (vars: RuleVariables) => unknown;

export type CompileResult = { ok: true; run: CompiledExpression } | { ok: false; details: ErrorDetail[] };

/** Parse and type-check once, at save time and when a rule set is loaded. */
export function compileExpression(expression: string, path = 'body.expression'): CompileResult {
  if (expression.trim() === '') return { ok: false, details: [{ path, message: 'expression is empty' }] };
  try {
    const parsed = environment.parse(expression);
    const check = parsed.check();
    if (!check.valid)
      return { ok: false, details: [{ path, message: check.error?.message ?? 'type error' }] };
    if (check.type !== 'bool' && check.type !== 'dyn') {
      return { ok: false, details: [{ path, message: `expression must be a bool, it is ${check.type}` }] };
    }
    return { ok: true, run: (vars) => parsed(vars as unknown as Record<string, unknown>) };
  } catch (err) {
    return { ok: false, details: [{ path, message: err instanceof Error ? err.message : String(err) }] };
  }
}
