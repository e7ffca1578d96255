import type { TSchema } from '@sinclair/typebox';
import { type TypeCheck, TypeCompiler } from '@sinclair/typebox/compiler';
import { type ValueError, ValueErrorType } from '@sinclair/typebox/errors';
import { ApiError, type ErrorDetail } from '../../errors.ts';

/** Interface §8: at most 2,048 behaviour samples, counted over every array inside `behavior` at any depth. */
export const MAX_BEHAVIOR_SAMPLES = 2048;
/** Interface §8: single scoring bodies and per-event engine input. */
export const SINGLE_EVENT_LIMIT = 256 * 1024;
/** Interface §8: batch bodies. */
export const BATCH_BODY_LIMIT = 5 * 1024 * 1024;

const MAX_DETAILS = 10;

function literalChoices(schema: TSchema): string[] | undefined {
  const anyOf = (schema as { anyOf?: Array<{ const?: unknown }> }).anyOf;
  if (!anyOf?.every((s) => typeof s.const === 'string')) return undefined;
  return anyOf.map((s) => s.const as string);
}

function describe(error: ValueError): string {
  switch (error.type) {
    case ValueErrorType.Union: {
      const choices = literalChoices(error.schema);
      return choices ? `must be one of ${choices.join(', ')}` : 'does not match any allowed form';
    }
    case ValueErrorType.ObjectRequiredProperty:
      return 'is required';
    case ValueErrorType.ObjectAdditionalProperties:
      return 'is not an allowed property';
    case ValueErrorType.StringPattern: {
      if (error.path.endsWith('/idempotency_key')) {
        return 'must be 1 to 128 characters of letters, digits, _ . : -';
      }
      if (error.path.endsWith('/account_id')) return 'must not be empty or only whitespace';
      return error.message;
    }
    case ValueErrorType.NumberMinimum:
      return `must be ≥ ${(error.schema as { minimum?: number }).minimum}`;
    default:
      return error.message;
  }
}

/** `/context/event_type` under `body` → `body.context.event_type`. */
export function detailPath(prefix: string, pointer: string): string {
  const rest = pointer
    .split('/')
    .filter((p) => p !== '')
    .map((p) => p.replace(/~1/g, '/').replace(/~0/g, '~'))
    .join('.');
  return rest ? `${prefix}.${rest}` : prefix;
}

/** Schema errors as `{path, message}`: one per path, the most precise first, at most ten. */
export function schemaDetails(check: TypeCheck<TSchema>, value: unknown, prefix: string): ErrorDetail[] {
  const seen = new Set<string>();
  const details: ErrorDetail[] = [];
  for (const error of check.Errors(value)) {
    if (seen.has(error.path)) continue;
    seen.add(error.path);
    const branch = error.type === ValueErrorType.Union ? closestBranch(error) : undefined;
    if (branch) {
      details.push(...schemaDetails(compile(branch), error.value, detailPath(prefix, error.path)));
    } else {
      details.push({ path: detailPath(prefix, error.path), message: describe(error) });
    }
    if (details.length >= MAX_DETAILS) break;
  }
  return details.slice(0, MAX_DETAILS);
}

/**
 * For a union of object forms (e.g. `{challenge_id, nonce}` or `{altcha}`), the form the value
 * meant: the one sharing most property names with it. Its own errors are more precise than
 * "does not match any allowed form".
 */
function closestBranch(error: ValueError): TSchema | undefined {
  const anyOf = (error.schema as { anyOf?: TSchema[] }).anyOf;
  const value = error.value;
  if (!anyOf || typeof value !== 'object' || value === null || Array.isArray(value)) return undefined;
  const forms = anyOf.filter((s) => s.type === 'object' && typeof s.properties === 'object');
  if (forms.length !== anyOf.length) return undefined;
  const keys = Object.keys(value);
  let best: TSchema | undefined;
  let bestScore = 0;
  for (const form of forms) {
    const score = keys.filter((k) => Object.hasOwn(form.properties as object, k)).length;
    if (score > bestScore) [best, bestScore] = [form, score];
  }
  return best;
}

export function validationFailed(details: ErrorDetail[]): ApiError {
  const first = details[0];
  const message = first ? `Invalid ${first.path}: ${first.message}.` : 'The request is invalid.';
  return new ApiError('validation_failed', message, details);
}

const compiled = new WeakMap<TSchema, TypeCheck<TSchema>>();

export function compile(schema: TSchema): TypeCheck<TSchema> {
  let check = compiled.get(schema);
  if (!check) {
    check = TypeCompiler.Compile(schema);
    compiled.set(schema, check);
  }
  return check;
}

/**
 * Fastify validator compiler for the scoring and decision routes: TypeBox's compiled checks, with
 * the same `{path, message}` details as batch items get.
 */
export function typeboxValidatorCompiler({ schema, httpPart }: { schema: unknown; httpPart?: string }) {
  const check = compile(schema as TSchema);
  const prefix = httpPart ?? 'body';
  return (value: unknown): { value: unknown } | { error: ApiError } =>
    check.Check(value) ? { value } : { error: validationFailed(schemaDetails(check, value, prefix)) };
}

/** Number of array elements inside `value`, at any depth; stops counting past `limit`. */
export function countArrayElements(value: unknown, limit: number): number {
  let total = 0;
  const stack: unknown[] = [value];
  while (stack.length > 0) {
    const current = stack.pop();
    if (current === null || typeof current !== 'object') continue;
    if (Array.isArray(current)) {
      const n = current.length;
      total += n;
      if (total > limit) return total;
      // Indexed, not for…of: the array iterator costs more than the check of each element
      // (behaviour samples are arrays of numbers: nothing to push).
      for (let i = 0; i < n; i++) {
        const item: unknown = current[i];
        if (item !== null && typeof item === 'object') stack.push(item);
      }
    } else {
      for (const key in current) {
        const item = (current as Record<string, unknown>)[key];
        if (item !== null && typeof item === 'object') stack.push(item);
      }
    }
  }
  return total;
}

/** The behaviour-sample limit; `prefix` is where `behavior` sits (`body`, `body.events.3`). */
export function behaviorLimitDetails(behavior: unknown, prefix: string): ErrorDetail[] {
  if (behavior === undefined) return [];
  const count = countArrayElements(behavior, MAX_BEHAVIOR_SAMPLES);
  if (count <= MAX_BEHAVIOR_SAMPLES) return [];
  return [
    {
      path: `${prefix}.behavior`,
      message: `holds more than ${MAX_BEHAVIOR_SAMPLES} samples in total (every array element at any depth counts)`,
    },
  ];
}

/** preHandler for bodies carrying `behavior`: the sample limit is a validation failure (SPEC §8). */
export async function checkBehaviorLimit(request: { body: unknown }): Promise<void> {
  const body = request.body as { behavior?: unknown } | null;
  const details = behaviorLimitDetails(body?.behavior, 'body');
  if (details.length > 0) throw validationFailed(details);
}
