import type { TSchema } from '@sinclair/typebox';
import { type TypeCheck, TypeCompiler } from '@sinclair/typebox/compiler';
import { ValueErrorType as E, type ValueError } from '@sinclair/typebox/errors';
import { FormatRegistry, Kind, TypeRegistry } from '@sinclair/typebox/type';
import { ApiError, type ErrorDetail } from '../errors.ts';

/**
 * The one validation path (docs/architecture.md § validation): every route's params, query and
 * body schema is compiled once, when the route registers, by TypeBox's compiler; a value that fails
 * is a 400 `validation_failed` whose details come in one of two wordings, chosen per plugin:
 *
 * - `every` (the scoring API and the decision, label, entity, stats and audit routes): one detail
 *   per path, the most precise first, at most ten; `Invalid body.context.account_id: is required.`;
 * - `first` (the other management routes): the first error only, worded as JSON Schema validators
 *   (Ajv) word it, a union's tries before it; `Invalid body: body.name must NOT have fewer than 1
 *   characters`.
 */
export type Wording = 'every' | 'first';

const MAX_DETAILS = 10;

const compiled = new WeakMap<TSchema, TypeCheck<TSchema>>();

/** TypeBox's compiled check of `schema`, compiled once per schema object. */
export function compile(schema: TSchema): TypeCheck<TSchema> {
  let check = compiled.get(schema);
  if (!check) {
    check = TypeCompiler.Compile(schema);
    compiled.set(schema, check);
  }
  return check;
}

/**
 * Fastify validator compiler for every route: TypeBox's compiled check, and on failure the 400 in
 * the plugin's wording (the hot path is the check alone).
 */
export function schemaValidator(wording: Wording) {
  registerChecks();
  return ({ schema, httpPart }: { schema: unknown; httpPart?: string }) => {
    const check = compile(wording === 'first' ? jsonSchemaStrings(schema as TSchema) : (schema as TSchema));
    const part = httpPart ?? 'body';
    return (value: unknown): { value: unknown } | { error: ApiError } =>
      check.Check(value) ? { value } : { error: schemaError(check, value, part, wording) };
  };
}

/** The 400 for a value `check` refused, `part` being where it was sent (`body`, `querystring`…). */
export function schemaError(
  check: TypeCheck<TSchema>,
  value: unknown,
  part: string,
  wording: Wording,
): ApiError {
  return wording === 'every'
    ? validationFailed(schemaDetails(check, value, part))
    : validationFailed(firstErrorDetails(check.Errors(value).First(), part), 'first', part);
}

/** A 400 `validation_failed` with these details, its message worded as `wording` words it. */
export function validationFailed(
  details: ErrorDetail[],
  wording: Wording = 'every',
  part = 'body',
): ApiError {
  const first = details[0];
  let message: string;
  if (wording === 'first') message = `Invalid ${part}: ${first?.path} ${first?.message}`;
  else message = first ? `Invalid ${first.path}: ${first.message}.` : 'The request is invalid.';
  return new ApiError('validation_failed', message, details);
}

// ---- `every`: one detail per path, the most precise first ------------------------------------

function literalChoices(schema: TSchema): string[] | undefined {
  const anyOf = (schema as { anyOf?: Array<{ const?: unknown }> }).anyOf;
  if (!anyOf?.every((s) => typeof s.const === 'string')) return undefined;
  return anyOf.map((s) => s.const as string);
}

function describe(error: ValueError): string {
  switch (error.type) {
    case E.Union: {
      const choices = literalChoices(error.schema);
      return choices ? `must be one of ${choices.join(', ')}` : 'does not match any allowed form';
    }
    case E.ObjectRequiredProperty:
      return 'is required';
    case E.ObjectAdditionalProperties:
      return 'is not an allowed property';
    case E.StringPattern: {
      if (error.path.endsWith('/idempotency_key')) {
        return 'must be 1 to 128 characters of letters, digits, _ . : -';
      }
      if (error.path.endsWith('/account_id')) return 'must not be empty or only whitespace';
      return error.message;
    }
    case E.NumberMinimum:
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
    .map(unescapeKey)
    .join('.');
  return rest ? `${prefix}.${rest}` : prefix;
}

function unescapeKey(key: string): string {
  return key.replace(/~1/g, '/').replace(/~0/g, '~');
}

/** Schema errors as `{path, message}`: one per path, the most precise first, at most ten. */
export function schemaDetails(check: TypeCheck<TSchema>, value: unknown, prefix: string): ErrorDetail[] {
  const seen = new Set<string>();
  const details: ErrorDetail[] = [];
  for (const error of check.Errors(value)) {
    if (seen.has(error.path)) continue;
    seen.add(error.path);
    const branch = error.type === E.Union ? closestBranch(error) : undefined;
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

// ---- `first`: the first error, as JSON Schema validators word it -------------------------------

/**
 * The first error with a JSON Schema validator's (Ajv's) path and message. A union's error comes
 * after what each of its forms answered (`tried`): there such a validator goes on past a wrong
 * type to the constant or bounds of the same schema, so a literal of the wrong type is two errors.
 */
export function firstErrorDetails(
  error: ValueError | undefined,
  prefix: string,
  tried = false,
): ErrorDetail[] {
  if (!error) return [];
  const details: ErrorDetail[] = [];
  if (error.type === E.Union) {
    for (const form of error.errors) details.push(...firstErrorDetails(form.First(), prefix, true));
  }
  const path = pointerPath(prefix, error);
  details.push({ path, message: jsonSchemaMessage(error) });
  if (tried) for (const message of pastTheType(error)) details.push({ path, message });
  return details;
}

/** In a union's form, what such a validator adds after a wrong type: the constant, a number's bounds. */
function pastTheType(error: ValueError): string[] {
  const s = error.schema as { type?: string; const?: unknown; minimum?: number; maximum?: number };
  if (error.type === E.Literal && typeof error.value !== s.type) return ['must be equal to constant'];
  if (error.type !== E.Integer || typeof error.value !== 'number') return [];
  const out: string[] = [];
  if (s.maximum !== undefined && error.value > s.maximum) out.push(`must be <= ${s.maximum}`);
  if (s.minimum !== undefined && error.value < s.minimum) out.push(`must be >= ${s.minimum}`);
  return out;
}

/**
 * The path as such a validator gives it: the object's pointer in dots (its keys as escaped in the
 * pointer), then the property that is missing or not allowed (as it is named).
 */
function pointerPath(prefix: string, error: ValueError): string {
  const named = error.type === E.ObjectRequiredProperty || error.type === E.ObjectAdditionalProperties;
  const cut = named ? error.path.lastIndexOf('/') : error.path.length;
  const parts = error.path.slice(1, cut).split('/');
  if (parts[0] === '') parts.shift();
  if (named) parts.push(unescapeKey(error.path.slice(cut + 1)));
  return parts.length > 0 ? `${prefix}.${parts.join('.')}` : prefix;
}

function jsonSchemaMessage(error: ValueError): string {
  const s = error.schema as Record<string, unknown>;
  switch (error.type) {
    case E.ObjectRequiredProperty:
      return `must have required property '${unescapeKey(error.path.slice(error.path.lastIndexOf('/') + 1))}'`;
    case E.ObjectAdditionalProperties:
      return 'must NOT have additional properties';
    case E.Object:
      return 'must be object';
    case E.Array:
      return 'must be array';
    case E.String:
      return 'must be string';
    case E.Number:
      return 'must be number';
    case E.Integer:
      return 'must be integer';
    case E.Boolean:
      return 'must be boolean';
    case E.Null:
      return 'must be null';
    case E.Literal:
      // `{const, type}`: the type is checked first.
      return typeof error.value === s.type ? 'must be equal to constant' : `must be ${s.type}`;
    case E.Union:
      return 'must match a schema in anyOf';
    case E.Kind:
      if (error.schema[Kind] !== JSON_SCHEMA_STRING) return error.message;
      return stringFault(s as StringSchema, error.value) ?? error.message;
    case E.NumberMinimum:
    case E.IntegerMinimum:
      return `must be >= ${s.minimum}`;
    case E.NumberMaximum:
    case E.IntegerMaximum:
      return `must be <= ${s.maximum}`;
    case E.NumberExclusiveMinimum:
    case E.IntegerExclusiveMinimum:
      return `must be > ${s.exclusiveMinimum}`;
    case E.NumberExclusiveMaximum:
    case E.IntegerExclusiveMaximum:
      return `must be < ${s.exclusiveMaximum}`;
    case E.ArrayMinItems:
      return `must NOT have fewer than ${s.minItems} items`;
    case E.ArrayMaxItems:
      return `must NOT have more than ${s.maxItems} items`;
    case E.ObjectMinProperties:
      return `must NOT have fewer than ${s.minProperties} properties`;
    case E.ObjectMaxProperties:
      return `must NOT have more than ${s.maxProperties} properties`;
    default:
      return error.message;
  }
}

// ---- strings as JSON Schema has them (the `first` routes) ----------------------------------------

/**
 * The `first` routes' strings are checked as JSON Schema defines them (and as Ajv checked them
 * before these routes moved to TypeBox): lengths in code points (an emoji is one character, where
 * TypeBox's own check counts UTF-16 units), patterns as Unicode expressions. Their schemas are
 * compiled as copies in which such strings are of this kind; the route's schema (and so the OpenAPI
 * document) is unchanged.
 */
const JSON_SCHEMA_STRING = 'JsonSchemaString';
const PATTERN = Symbol('pattern');

interface StringSchema {
  minLength?: number;
  maxLength?: number;
  pattern?: string;
  format?: string;
  [PATTERN]?: RegExp;
}

/** Why `value` fails the string schema, in a JSON Schema validator's words; undefined if it passes. */
function stringFault(schema: StringSchema, value: unknown): string | undefined {
  if (typeof value !== 'string') return 'must be string';
  const { minLength, maxLength, format } = schema;
  // Code points are never more than UTF-16 units: counted only where the units are over the limit
  // or a minimum applies.
  const units = value.length;
  const over = maxLength !== undefined && units > maxLength;
  const length = over || minLength !== undefined ? [...value].length : units;
  if (maxLength !== undefined && length > maxLength) return `must NOT have more than ${maxLength} characters`;
  if (minLength !== undefined && length < minLength)
    return `must NOT have fewer than ${minLength} characters`;
  if (schema[PATTERN] && !schema[PATTERN].test(value)) return `must match pattern "${schema.pattern}"`;
  if (format !== undefined && !FormatRegistry.Get(format)?.(value)) return `must match format "${format}"`;
  return undefined;
}

function jsonSchemaStrings(schema: TSchema): TSchema {
  const s = schema as TSchema & Record<string, unknown>;
  if (s[Kind] === 'String') {
    if (!['minLength', 'maxLength', 'pattern', 'format'].some((k) => k in s)) return schema;
    const pattern = typeof s.pattern === 'string' ? { [PATTERN]: new RegExp(s.pattern, 'u') } : {};
    return { ...s, ...pattern, [Kind]: JSON_SCHEMA_STRING };
  }
  const copy: Record<string | symbol, unknown> = { ...s };
  for (const key of ['properties', 'patternProperties']) {
    const map = s[key] as Record<string, TSchema> | undefined;
    if (map) copy[key] = Object.fromEntries(Object.entries(map).map(([k, v]) => [k, jsonSchemaStrings(v)]));
  }
  for (const key of ['anyOf', 'allOf']) {
    const list = s[key] as TSchema[] | undefined;
    if (Array.isArray(list)) copy[key] = list.map(jsonSchemaStrings);
  }
  for (const key of ['items', 'additionalProperties']) {
    const inner = s[key] as TSchema | undefined;
    if (inner && typeof inner === 'object' && !Array.isArray(inner)) copy[key] = jsonSchemaStrings(inner);
  }
  return copy as unknown as TSchema;
}

// ---- formats and kinds -------------------------------------------------------------------------

/**
 * Registered with TypeBox (its registries are the process's): the JSON Schema string kind above,
 * and the string formats request schemas use: `date-time` as RFC 3339 §5.6 has it, a time zone
 * required, `T`, `t` or a space between (as ajv-formats checks it).
 */
function registerChecks(): void {
  if (!FormatRegistry.Has('date-time')) FormatRegistry.Set('date-time', isDateTime);
  if (!TypeRegistry.Has(JSON_SCHEMA_STRING)) {
    TypeRegistry.Set(
      JSON_SCHEMA_STRING,
      (schema, value) => stringFault(schema as StringSchema, value) === undefined,
    );
  }
}

const DATE = /^(\d\d\d\d)-(\d\d)-(\d\d)$/;
const TIME = /^(\d\d):(\d\d):(\d\d(?:\.\d+)?)(z|([+-])(\d\d)(?::?(\d\d))?)$/i;
const DAYS = [0, 31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];

function isDate(text: string): boolean {
  const m = DATE.exec(text);
  if (!m) return false;
  const [year, month, day] = [Number(m[1]), Number(m[2]), Number(m[3])];
  const leap = year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0);
  return month >= 1 && month <= 12 && day >= 1 && day <= (month === 2 && leap ? 29 : (DAYS[month] as number));
}

function isTime(text: string): boolean {
  const m = TIME.exec(text);
  if (!m) return false;
  const [hour, minute, second] = [Number(m[1]), Number(m[2]), Number(m[3])];
  const sign = m[5] === '-' ? -1 : 1;
  const [zoneHour, zoneMinute] = [Number(m[6] ?? 0), Number(m[7] ?? 0)];
  if (zoneHour > 23 || zoneMinute > 59) return false;
  if (hour <= 23 && minute <= 59 && second < 60) return true;
  // A leap second: 23:59:60 in UTC.
  const utcMinute = minute - zoneMinute * sign;
  const utcHour = hour - zoneHour * sign - (utcMinute < 0 ? 1 : 0);
  return (utcHour === 23 || utcHour === -1) && (utcMinute === 59 || utcMinute === -1) && second < 61;
}

export function isDateTime(text: string): boolean {
  const parts = text.split(/t|\s/i);
  return parts.length === 2 && isDate(parts[0] as string) && isTime(parts[1] as string);
}
