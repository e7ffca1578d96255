import { Environment } from '@marcbachmann/cel-js';
import type { RE2JS } from 're2js';
import type { ErrorDetail } from '../errors.ts';
import type { RuleMeter } from './budget.ts';
import type { ListMatcher } from './lists.ts';
import { compileRegex, matchCost } from './regex.ts';

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
 * Functions: inList(name, value), ipInList(name, ip), emailDomain(email); `s.matches(re)` runs on
 * RE2 (rules/regex.ts). Every evaluation is metered (rules/budget.ts).
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

/** The list functions: declared on the environment for the checker, evaluated by `listCall`. */
const LIST_FUNCTIONS: ReadonlySet<string> = new Set(['inList', 'ipInList']);

function listFunctionOutsideRule(): boolean {
  throw new Error('inList/ipInList run only inside a compiled rule (cel.ts: listCall)');
}

function emailDomain(email: string): string {
  const at = email.lastIndexOf('@');
  return at === -1 ? '' : email.slice(at + 1).toLowerCase();
}

// The parts of cel-js's checker, evaluator and AST that the `matches` macro and the meter use.
interface CelType {
  kind: string;
  type: string;
  name: string;
}
interface Checker {
  check(node: unknown, ctx: unknown): CelType;
  getType(name: string): CelType;
  createError(code: string, message: string, node?: unknown): Error;
}
interface Evaluator {
  run(node: unknown, ctx: unknown): unknown;
  createError(code: string, message: string, node?: unknown): Error;
}
type EvaluateFn = (ev: unknown, node: unknown, ctx: unknown) => unknown;
interface AstNode {
  op: string;
  args: unknown;
  evaluate: EvaluateFn;
  readonly meta: { alternate?: AstNode; macro?: object; evaluate: EvaluateFn };
}

/**
 * Where a compiled expression's node wrappers find the meter and the site's lists of the
 * evaluation in progress (set by `run`, one slot per compiled expression: no shared state).
 */
interface MeterSlot {
  meter: RuleMeter | null;
  lists: ListMatcher | null;
}

interface MatchesMacro {
  node: AstNode;
  receiver: AstNode;
  pattern: AstNode;
  /** The compiled pattern when it is a string literal (compiled, and refused, at check time). */
  literal?: RE2JS;
  slot?: MeterSlot;
  typeCheck(checker: Checker, macro: MatchesMacro, ctx: unknown): CelType;
  evaluate(ev: Evaluator, macro: MatchesMacro, ctx: unknown): boolean;
}

const isStringish = (t: CelType) => t.type === 'string' || t.kind === 'dyn';

/**
 * `s.matches(re)` on RE2. cel-js's own `string.matches` uses JavaScript's backtracking RegExp and
 * cannot be replaced, so every `.matches(x)` call is taken over at parse time by a macro (the
 * library's extension point; a parse-time macro claims the call whatever its receiver type). The
 * macro is declared on `bytes` only so that its signature does not collide with the built-in one.
 */
function matchesMacro({
  ast,
  args,
  receiver,
}: {
  ast: AstNode;
  args: AstNode[];
  receiver: AstNode;
}): MatchesMacro {
  return {
    node: ast,
    receiver,
    pattern: args[0] as AstNode,
    typeCheck(checker, macro, ctx) {
      const receiverType = checker.check(macro.receiver, ctx);
      const patternType = checker.check(macro.pattern, ctx);
      if (!isStringish(receiverType) || !isStringish(patternType)) {
        throw checker.createError(
          'no_matching_overload',
          `found no matching overload for '${receiverType.name}.matches(${patternType.name})'`,
          macro.node,
        );
      }
      if (macro.pattern.op === 'value' && typeof macro.pattern.args === 'string') {
        const compiled = compileRegex(macro.pattern.args);
        if (!compiled.ok)
          throw checker.createError('invalid_regular_expression', compiled.message, macro.pattern);
        macro.literal = compiled.regex;
      }
      return checker.getType('bool');
    },
    evaluate(ev, macro, ctx) {
      const input = ev.run(macro.receiver, ctx);
      const pattern = macro.literal ?? ev.run(macro.pattern, ctx);
      if (typeof input !== 'string' || (typeof pattern !== 'string' && macro.literal === undefined)) {
        throw ev.createError(
          'no_matching_overload',
          'matches() needs a string and a string pattern',
          macro.node,
        );
      }
      let regex = macro.literal;
      if (!regex) {
        const compiled = compileRegex(pattern as string);
        if (!compiled.ok) throw ev.createError('invalid_regular_expression', compiled.message, macro.pattern);
        regex = compiled.regex;
      }
      macro.slot?.meter?.charge(matchCost(input, regex));
      return regex.test(input);
    },
  };
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
  .registerFunction('inList(string, string): bool', listFunctionOutsideRule)
  .registerFunction('ipInList(string, string): bool', listFunctionOutsideRule)
  .registerFunction('emailDomain(string): string', emailDomain)
  .registerFunction('bytes.matches(ast): bool', matchesMacro);

const AstNodeClass = (environment.parse('true') as unknown as { ast: object }).ast.constructor;
const isNode = (v: unknown): v is AstNode => v instanceof AstNodeClass;

/** Steps charged for a value an expression node produced: big strings and lists cost more. */
function resultCost(value: unknown): number {
  if (typeof value === 'string') return value.length >> 6;
  if (Array.isArray(value)) return value.length;
  return 0;
}

/**
 * Meter every node of a checked expression: each evaluation of a node costs a step (charged before
 * it runs, so an exhausted meter stops loops at once) plus the size of what it produced.
 */
function meterNodes(root: AstNode, slot: MeterSlot): void {
  const seen = new Set<object>();
  const visit = (value: unknown, depth: number): void => {
    if (typeof value !== 'object' || value === null || seen.has(value) || depth > 200) return;
    seen.add(value);
    if (Array.isArray(value)) {
      for (const v of value) visit(v, depth + 1);
      return;
    }
    if (!isNode(value)) {
      // Comprehension arguments and macro objects: their AST-valued fields.
      for (const v of Object.values(value)) if (isNode(v) || Array.isArray(v)) visit(v, depth + 1);
      return;
    }
    const node = value;
    const { alternate, macro } = node.meta;
    const target: EvaluateFn = isListCall(node)
      ? listCall(node, slot)
      : alternate
        ? (ev, _n, ctx) => alternate.evaluate(ev, alternate, ctx)
        : macro
          ? (ev, _n, ctx) => (macro as { evaluate: EvaluateFn }).evaluate(ev, macro, ctx)
          : node.meta.evaluate;
    node.evaluate = (ev, n, ctx) => {
      slot.meter?.charge(1);
      const result = target(ev, n, ctx);
      const extra = resultCost(result);
      if (extra > 0) slot.meter?.charge(extra);
      return result;
    };
    if (macro && 'pattern' in macro) (macro as MatchesMacro).slot = slot;
    visit(node.args, depth + 1);
    if (alternate) visit(alternate, depth + 1);
    if (macro) visit(macro, depth + 1);
  };
  visit(root, 0);
}

function isListCall(node: AstNode): boolean {
  return node.op === 'call' && Array.isArray(node.args) && LIST_FUNCTIONS.has(node.args[0] as string);
}

/** `inList(name, value)` / `ipInList(name, value)` against the lists of the evaluation in `slot`. */
function listCall(node: AstNode, slot: MeterSlot): EvaluateFn {
  const [nameNode, valueNode] = (node.args as [string, AstNode[]])[1];
  return (ev, _n, ctx) => {
    const evaluator = ev as Evaluator;
    const name = evaluator.run(nameNode, ctx);
    const value = evaluator.run(valueNode, ctx);
    if (typeof name !== 'string' || typeof value !== 'string') {
      throw evaluator.createError(
        'no_matching_overload',
        `found no matching overload for '${(node.args as [string])[0]}(${typeof name}, ${typeof value})'`,
        node,
      );
    }
    return slot.lists?.has(name, value) ?? false;
  };
}

/**
 * Evaluate with a meter (every node and match is charged to it; it throws when exhausted) and the
 * site's lists (`inList`, `ipInList`).
 */
export type CompiledExpression = (
  vars: RuleVariables,
  meter: RuleMeter,
  lists: ListMatcher | null,
) => unknown;

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
    const slot: MeterSlot = { meter: null, lists: null };
    meterNodes((parsed as unknown as { ast: AstNode }).ast, slot);
    return {
      ok: true,
      run: (vars, meter, lists) => {
        slot.meter = meter;
        slot.lists = lists;
        try {
          return parsed(vars as unknown as Record<string, unknown>);
        } finally {
          slot.meter = null;
          slot.lists = null;
        }
      },
    };
  } catch (err) {
    return { ok: false, details: [{ path, message: err instanceof Error ? err.message : String(err) }] };
  }
}
