import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../testing/context.ts';
import { derivedOperationId, rewriteTuples, TAGS } from './openapi.ts';

type Json = Record<string, unknown>;

/** Every object in `node` at any depth, with its JSON pointer. */
function* objects(node: unknown, pointer = ''): Generator<[string, Json]> {
  if (Array.isArray(node)) {
    for (const [i, item] of node.entries()) yield* objects(item, `${pointer}/${i}`);
  } else if (node !== null && typeof node === 'object') {
    yield [pointer, node as Json];
    for (const [key, value] of Object.entries(node)) yield* objects(value, `${pointer}/${key}`);
  }
}

describe('OpenAPI document (/api/openapi.json)', () => {
  let t: TestApp;
  let doc: Json;
  beforeAll(async () => {
    t = await createTestApp({ env: { WARDEN_PUBLIC_URL: 'https://warden.example' } });
    doc = (await t.app.inject('/api/openapi.json')).json();
  });
  afterAll(() => t.close());

  const operations = () =>
    Object.entries(doc.paths as Record<string, Record<string, Json>>).flatMap(([path, item]) =>
      Object.entries(item).map(([method, op]) => ({ path, method, op })),
    );

  it('is 3.1 with servers and described tags', () => {
    expect(doc.openapi).toBe('3.1.0');
    expect(doc.servers).toEqual([{ url: 'https://warden.example', description: expect.any(String) }]);
    const tags = (doc.tags as Array<{ name: string; description?: string }>).map((tag) => tag.name);
    for (const { op } of operations()) for (const tag of op.tags as string[]) expect(tags).toContain(tag);
    for (const tag of doc.tags as Array<{ name: string; description?: string }>)
      expect(tag.description).toBe(TAGS[tag.name]);
  });

  it('gives every operation a unique operationId, a summary, tags, security and a 4XX answer', () => {
    const ids = new Set<string>();
    for (const { path, method, op } of operations()) {
      const where = `${method.toUpperCase()} ${path}`;
      expect(op.operationId, where).toMatch(/^[a-z][A-Za-z0-9]+$/);
      expect(ids.has(op.operationId as string), where).toBe(false);
      ids.add(op.operationId as string);
      expect(op.summary, where).toEqual(expect.any(String));
      expect((op.tags as string[]).length, where).toBeGreaterThan(0);
      expect(op.security, where).toBeDefined();
      expect(
        Object.keys(op.responses as Json).some((s) => s.startsWith('4')),
        where,
      ).toBe(true);
    }
    expect(ids.size).toBeGreaterThanOrEqual(50);
  });

  it('writes tuples as prefixItems (no draft-07 items arrays or additionalItems anywhere)', () => {
    let tuples = 0;
    for (const [pointer, node] of objects(doc)) {
      expect(Array.isArray(node.items), pointer).toBe(false);
      expect('additionalItems' in node, pointer).toBe(false);
      if (node.prefixItems) tuples++;
    }
    expect(tuples).toBeGreaterThan(0);
    type Body = {
      content: { 'application/json': { schema: { properties: { behavior: { properties: Json } } } } };
    };
    const paths = doc.paths as Record<string, Record<string, { requestBody: Body }>>;
    const body = paths['/api/antibot/verify']?.post?.requestBody as Body;
    const behavior = body.content['application/json'].schema.properties.behavior.properties;
    expect((behavior.mouse as Json).items).toMatchObject({ prefixItems: expect.any(Array), items: false });
  });

  it('documents Idempotency-Key and the RateLimit headers on the scoring routes', () => {
    const verify = (doc.paths as Record<string, Record<string, Json>>)['/api/antibot/verify']?.post as Json;
    expect(verify.operationId).toBe('verifyEvent');
    expect(verify.parameters).toContainEqual(
      expect.objectContaining({ name: 'Idempotency-Key', in: 'header' }),
    );
    const created = (verify.responses as Record<string, { headers: Json }>)['201'];
    expect(Object.keys(created?.headers ?? {})).toEqual(
      expect.arrayContaining(['RateLimit-Limit', 'RateLimit-Remaining', 'RateLimit-Reset']),
    );
  });
});

describe('openapi helpers', () => {
  it('rewrites closed and open tuples', () => {
    expect(
      rewriteTuples({ type: 'array', items: [{ type: 'number' }], additionalItems: false, minItems: 1 }),
    ).toEqual({ type: 'array', prefixItems: [{ type: 'number' }], items: false, minItems: 1 });
    expect(rewriteTuples({ items: [{ type: 'string' }] })).toEqual({ prefixItems: [{ type: 'string' }] });
    expect(rewriteTuples({ items: { type: 'string' } })).toEqual({ items: { type: 'string' } });
  });

  it('derives an operationId for routes without a name', () => {
    expect(derivedOperationId('post', '/api/workspaces/{id}/audit-log')).toBe('postWorkspacesAuditLog');
  });
});
