import type { RouteOptions } from 'fastify';

/**
 * Bad requests for every route, derived from its schemas (validation-answers.test.ts): a valid
 * sample of each part (params, query, body), then one fault at a time, each property's in turn.
 */

export interface BadRequest {
  method: string;
  url: string;
  /** The JSON text sent, if any. */
  payload?: string;
}

interface Schema {
  type?: string | string[];
  const?: unknown;
  anyOf?: Schema[];
  properties?: Record<string, Schema>;
  patternProperties?: Record<string, Schema>;
  required?: string[];
  additionalProperties?: boolean | Schema;
  items?: Schema;
  minItems?: number;
  maxItems?: number;
  minLength?: number;
  maxLength?: number;
  minimum?: number;
  maximum?: number;
  pattern?: string;
  format?: string;
  maxProperties?: number;
}

/** Ids the test made, each replaced by `<name>` in what is recorded. */
export function placeholders(ids: Record<string, string>) {
  const pairs = Object.entries(ids).sort((a, b) => b[1].length - a[1].length);
  return {
    ids,
    hide: (text: string) => pairs.reduce((s, [name, id]) => s.split(id).join(`<${name}>`), text),
  };
}

const STRING_CANDIDATES = [
  'x',
  'abc',
  '1',
  '50',
  'US',
  'login',
  'owner',
  'a@b.example',
  'example.com',
  'https://hooks.example/warden',
  '2026-01-02T03:04:05Z',
  '2026-01-02',
  'ab12cd34',
];
const BAD_STRINGS = ['!! bad !!', ' ', '', '0', 'x'];

function regex(pattern: string): RegExp {
  return new RegExp(pattern, 'u');
}

function fits(schema: Schema, s: string): boolean {
  const n = [...s].length;
  if (schema.minLength !== undefined && n < schema.minLength) return false;
  if (schema.maxLength !== undefined && n > schema.maxLength) return false;
  if (schema.pattern !== undefined && !regex(schema.pattern).test(s)) return false;
  if (schema.format === 'date-time' && !/T/.test(s)) return false;
  return true;
}

function typeOf(schema: Schema): string | undefined {
  return Array.isArray(schema.type) ? schema.type[0] : schema.type;
}

/** A value the schema accepts, as far as a simple walk can tell. */
export function sample(schema: Schema, known: Record<string, string> = {}): unknown {
  if (schema.const !== undefined) return schema.const;
  if (schema.anyOf) return sample(schema.anyOf[0] as Schema, known);
  switch (typeOf(schema)) {
    case 'object': {
      const value: Record<string, unknown> = {};
      for (const name of schema.required ?? []) value[name] = sample(schema.properties?.[name] ?? {}, known);
      for (const name of Object.keys(schema.properties ?? {})) {
        if (known[name] !== undefined) value[name] = known[name];
      }
      return value;
    }
    case 'array':
      return Array.from({ length: schema.minItems ?? 0 }, () => sample(schema.items ?? {}));
    case 'string':
      return STRING_CANDIDATES.find((s) => fits(schema, s)) ?? 'x'.repeat(schema.minLength ?? 1);
    case 'integer':
    case 'number':
      return schema.minimum ?? 1;
    case 'boolean':
      return true;
    case 'null':
      return null;
    default:
      return 'x';
  }
}

/** Values the schema refuses, each for another reason. */
function faults(schema: Schema, inQuery: boolean): unknown[] {
  const out: unknown[] = [];
  const type = typeOf(schema);
  if (schema.anyOf) {
    out.push(inQuery ? 'not-a-choice' : { not: 'a choice' });
    if (schema.anyOf.every((s) => typeof s.const === 'string')) out.push('not-a-choice');
    if (!inQuery) out.push(12345);
  } else if (schema.const !== undefined) {
    out.push(inQuery ? 'not-the-constant' : 12345);
  } else if (type === 'string') {
    if (!inQuery) out.push(12345);
    if (schema.pattern !== undefined) {
      const bad = BAD_STRINGS.find((s) => !regex(schema.pattern as string).test(s));
      if (bad !== undefined) out.push(bad);
    }
    if (schema.format !== undefined) out.push('not a date');
    if (schema.minLength !== undefined && schema.minLength > 0) out.push('');
    if (schema.maxLength !== undefined) {
      out.push('x'.repeat(schema.maxLength + 1));
      // Characters outside the BMP: one code point, two UTF-16 units.
      if (schema.maxLength <= 4096) out.push('\u{1F600}'.repeat(schema.maxLength));
    }
  } else if (type === 'integer' || type === 'number') {
    out.push('x');
    if (type === 'integer') out.push(1.5);
    if (schema.minimum !== undefined) out.push(schema.minimum - 1);
    if (schema.maximum !== undefined) out.push(schema.maximum + 1);
  } else if (type === 'boolean') {
    out.push('x');
  } else if (type === 'array') {
    out.push('x');
    if (schema.minItems !== undefined && schema.minItems > 0) out.push([]);
    if (schema.maxItems !== undefined && schema.maxItems <= 100) {
      out.push(Array.from({ length: schema.maxItems + 1 }, () => sample(schema.items ?? {})));
    }
    if (schema.items) {
      const [first] = faults(schema.items, false);
      if (first !== undefined) out.push([sample(schema.items), first]);
    }
  } else if (type === 'object') {
    out.push('x', []);
  }
  return out;
}

/** Objects the schema refuses: one fault in one property at a time, missing and extra properties. */
function objectFaults(
  schema: Schema,
  inQuery: boolean,
  depth: number,
  known: Record<string, string>,
): Array<Record<string, unknown>> {
  const base = sample(schema, known) as Record<string, unknown>;
  const out: Array<Record<string, unknown>> = [{}];
  for (const name of schema.required ?? []) {
    const { [name]: _gone, ...rest } = base;
    out.push(rest);
  }
  out.push({ ...base, zz_extra: inQuery ? 'x' : 1 });
  out.push({ ...base, ...Object.fromEntries(Array.from({ length: 12 }, (_, i) => [`extra_${i}`, 'x'])) });
  for (const [name, property] of Object.entries(schema.properties ?? {})) {
    for (const bad of faults(property, inQuery)) out.push({ ...base, [name]: bad });
    if (!inQuery && depth < 2 && typeOf(property) === 'object' && property.properties) {
      for (const inner of objectFaults(property, false, depth + 1, known))
        out.push({ ...base, [name]: inner });
    }
  }
  if (!inQuery) {
    // Every property wrong at once: more than ten errors where there are that many properties.
    const all: Record<string, unknown> = {};
    for (const [name, property] of Object.entries(schema.properties ?? {})) {
      const [bad] = faults(property, false);
      all[name] = bad === undefined ? 12345 : bad;
    }
    out.push({ ...all, zz_extra: 1 });
  }
  return out;
}

function queryString(query: Record<string, unknown>): string {
  const text = Object.entries(query)
    .map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(String(v))}`)
    .join('&');
  return text ? `?${text}` : '';
}

/** The id a path parameter takes in the test's workspace. */
function paramValue(url: string, name: string, ids: Record<string, string>): string {
  if (name === 'workspaceId') return ids.workspace as string;
  if (name === 'userId') return ids.owner as string;
  if (name === 'id') {
    if (url.startsWith('/api/sites/')) return ids.site as string;
    if (url.startsWith('/api/workspaces/')) return ids.workspace as string;
    if (url.startsWith('/api/rules/')) return ids.rule as string;
    if (url.startsWith('/api/lists/')) return ids.list as string;
    if (url.startsWith('/api/decisions/')) return ids.decision as string;
  }
  if (name === 'file') return 'warden.js';
  return 'ab12cd34';
}

export function badRequests(routes: RouteOptions[], ids: Record<string, string>): BadRequest[] {
  const out: BadRequest[] = [];
  const seen = new Set<string>();
  for (const route of routes) {
    const method = ([] as string[]).concat(route.method as string | string[])[0] as string;
    if (!['GET', 'POST', 'PUT', 'PATCH', 'DELETE'].includes(method)) continue;
    const key = `${method} ${route.url}`;
    if (seen.has(key)) continue;
    seen.add(key);
    const schema = (route.schema ?? {}) as { params?: Schema; querystring?: Schema; body?: Schema };
    if (!schema.params && !schema.querystring && !schema.body) continue;
    const paramsOf = (values: Record<string, unknown>) =>
      route.url.replace(/:([A-Za-z0-9_]+)|\*/g, (_m, name: string | undefined) =>
        encodeURIComponent(String(values[name ?? '*'] ?? 'x')),
      );
    const params: Record<string, unknown> = {};
    for (const name of Object.keys(schema.params?.properties ?? {})) {
      params[name] = paramValue(route.url, name, ids);
    }
    // Values that pass the access checks: the test's site and workspace.
    const known = { siteId: ids.site as string, workspaceId: ids.workspace as string };
    const query = (schema.querystring ? sample(schema.querystring, known) : {}) as Record<string, unknown>;
    const body = schema.body ? sample(schema.body, known) : undefined;
    const send = (p: Record<string, unknown>, q: Record<string, unknown>, b: unknown) =>
      out.push({
        method,
        url: `${paramsOf(p)}${queryString(q)}`,
        ...(b === undefined ? {} : { payload: JSON.stringify(b) }),
      });
    if (schema.params) {
      for (const [name, property] of Object.entries(schema.params.properties ?? {})) {
        for (const bad of faults(property, true)) {
          if (bad !== '') send({ ...params, [name]: bad }, query, body);
        }
      }
    }
    if (schema.querystring) {
      for (const bad of objectFaults(schema.querystring, true, 0, known)) send(params, bad, body);
    }
    if (schema.body) {
      send(params, query, body);
      const bodySchema = schema.body;
      const bodies: unknown[] =
        typeOf(bodySchema) === 'object'
          ? objectFaults(bodySchema, false, 0, known)
          : faults(bodySchema, false);
      for (const bad of [null, [], 'x', ...bodies]) send(params, query, bad);
      for (const branch of bodySchema.anyOf ?? []) {
        if (typeOf(branch) === 'object')
          for (const bad of objectFaults(branch, false, 0, known)) send(params, query, bad);
      }
    }
  }
  return out.concat(handWritten(ids));
}

/** Cases the walk above does not make: union forms mixed, nested patterns, batches of bad items. */
function handWritten(_ids: Record<string, string>): BadRequest[] {
  const post = (url: string, body: unknown): BadRequest => ({
    method: 'POST',
    url,
    payload: JSON.stringify(body),
  });
  const verify = '/api/antibot/verify';
  const context = { event_type: 'login', account_id: 'a1' };
  return [
    post('/api/antibot/challenge/verify', { challenge_id: 'c', altcha: 'x' }),
    post('/api/antibot/challenge/verify', { challenge_id: 'c' }),
    post('/api/antibot/challenge/verify', { nonce: 1 }),
    post('/api/antibot/challenge/verify', { altcha: '' }),
    post('/api/antibot/challenge/verify', { altcha: 1, nonce: -1 }),
    post('/api/antibot/challenge/verify', { challenge_id: '', nonce: -1 }),
    post('/api/antibot/challenge/verify', { challenge_id: 'c', nonce: 1.5 }),
    post('/api/antibot/challenge/verify', { challenge_id: 'c', nonce: 'x'.repeat(40) }),
    post('/api/antibot/challenge/verify', {}),
    post('/api/antibot/challenge', { difficulty: 3, extra: 1 }),
    post(verify, { context: { ...context, account_id: '   ' } }),
    post(verify, { context: { ...context, account_id: '' } }),
    post(verify, { context, idempotency_key: 'has space' }),
    post(verify, { context, idempotency_key: 'x'.repeat(129) }),
    post(verify, { context, idempotency_key: '' }),
    post(verify, { context: { ...context, event_type: 'lunch' } }),
    post(verify, { context: { ...context, order_amount: -1 } }),
    post(verify, { context: { ...context, order_amount: 'ten' } }),
    post(verify, { context: { event_type: 1, account_id: 2, email: 3, order_amount: -1, payment_hash: 4 } }),
    post(verify, {
      context,
      fingerprint: { canvas: 1, webgl: 2, audio: 3, fonts: 4, screen: 5, timezone: 6 },
    }),
    post(verify, { context, behavior: { mouse: 'x', keys: 1, touch: 2 }, environment: { webdriver: 'x' } }),
    post(verify, { context, fingerprint: { pow: { challenge_id: 'c', altcha: 'x' } } }),
    post(verify, { context, fingerprint: { pow: { nonce: -1 } } }),
    post(verify, {
      context,
      headers: Object.fromEntries(Array.from({ length: 101 }, (_, i) => [`h${i}`, 'v'])),
    }),
    post(verify, { context, headers: { a: 1 } }),
    post(verify, {
      context,
      behavior: { mouse: Array.from({ length: 2100 }, () => [1, 2, 3]) },
    }),
    post(verify, {
      a: 1,
      b: 2,
      c: 3,
      d: 4,
      e: 5,
      f: 6,
      g: 7,
      h: 8,
      i: 9,
      j: 10,
      k: 11,
      l: 12,
    }),
    post('/api/antibot/verify/batch', {
      events: [
        { context: { ...context, account_id: ' ' } },
        { context, idempotency_key: 'a b' },
        { context: { event_type: 'x' }, extra: 1 },
        'x',
        null,
        { context, behavior: { mouse: Array.from({ length: 2100 }, () => [1]) } },
      ],
    }),
    post('/api/antibot/events/batch', {
      events: [
        { context: { ...context, account_id: '' } },
        { context: { ...context, order_amount: -5 } },
        [],
      ],
    }),
  ];
}
