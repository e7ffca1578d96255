import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import type { DecisionCreatedEvent } from '@warden/protocol';
import Fastify from 'fastify';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { signWebhookPayload } from '../signature.ts';
import { expressHandler, fastifyWebhookPlugin, nodeHttpHandler } from './adapters.ts';
import { createWebhookReceiver, type WebhookReceiver } from './receiver.ts';
import { SqliteWebhookStore } from './sqlite-store.ts';
import { MemoryWebhookStore, type WebhookStore } from './store.ts';

const secret = 'whsec_receiver_test';

function event(
  overrides: Record<string, unknown> = {},
  data: Record<string, unknown> = {},
): DecisionCreatedEvent {
  const id = randomUUID();
  return {
    id,
    type: 'decision.created',
    createdAt: new Date().toISOString(),
    data: {
      id: `req_${id.slice(0, 8)}`,
      siteId: 'site_1',
      accountId: 'acct_1',
      type: 'checkout',
      riskScore: 70,
      riskLevel: 'high',
      classification: 'suspicious',
      signals: {},
      rulesTriggered: [],
      deviceFingerprint: '',
      ipAddress: '',
      userAgent: '',
      metadata: { action: 'challenge', decisionMs: 1, signalEvidence: [] },
      createdAt: new Date().toISOString(),
      ...data,
    },
    ...overrides,
  } as DecisionCreatedEvent;
}

function delivery(e: unknown, opts: { deliveryId?: string; key?: string } = {}) {
  const rawBody = typeof e === 'string' ? e : JSON.stringify(e);
  const id = opts.deliveryId ?? (e as { id?: string }).id ?? randomUUID();
  return {
    rawBody: Buffer.from(rawBody),
    headers: {
      'content-type': 'application/json',
      'service-delivery': id,
      'service-signature': signWebhookPayload(rawBody, opts.key ?? secret),
    },
  };
}

describe('createWebhookReceiver', () => {
  let dir: string;
  let store: SqliteWebhookStore;
  let processed: DecisionCreatedEvent[];
  let receiver: WebhookReceiver;
  beforeEach(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'warden-receiver-'));
    store = new SqliteWebhookStore(path.join(dir, 'events.db'));
    processed = [];
    receiver = createWebhookReceiver({
      secret,
      store,
      process: async (e) => void processed.push(e),
      retryBaseMs: 1,
    });
  });
  afterEach(async () => {
    await receiver.stop();
    store.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('401 for a bad or missing signature, before parsing', async () => {
    const e = event();
    expect((await receiver.handle(delivery(e, { key: 'whsec_other' }))).status).toBe(401);
    expect(
      (await receiver.handle({ rawBody: JSON.stringify(e), headers: { 'service-delivery': e.id } })).status,
    ).toBe(401);
    const tampered = delivery(e);
    tampered.rawBody = Buffer.from(JSON.stringify({ ...e, type: 'x' }));
    expect((await receiver.handle(tampered)).status).toBe(401);
    // Invalid JSON with a bad signature is still 401 (signature first).
    expect(
      (await receiver.handle({ rawBody: '{', headers: { 'service-signature': 't=1,v1=00' } })).status,
    ).toBe(401);
  });

  it.each([
    ['not JSON', '{nope', undefined],
    ['wrong type', event({ type: 'decision.updated' }), undefined],
    ['id not a UUID', event({ id: 'abc' }), 'abc'],
    ['id differs from Service-Delivery', event(), randomUUID()],
    ['missing data.id', event({}, { id: '' }), undefined],
    ['missing data.siteId', event({}, { siteId: 5 }), undefined],
    ['missing data.accountId', event({}, { accountId: undefined }), undefined],
    ['unknown action', event({}, { metadata: { action: 'approve' } }), undefined],
    ['riskScore out of range', event({}, { riskScore: 101 }), undefined],
    [
      'riskScore not finite',
      `${JSON.stringify(event()).replace('"riskScore":70', '"riskScore":"70"')}`,
      undefined,
    ],
  ])('400 for %s', async (_name, body, deliveryId) => {
    const req = delivery(body, deliveryId === undefined ? {} : { deliveryId });
    expect((await receiver.handle(req)).status).toBe(400);
  });

  it('202 for a new delivery, 200 for its duplicate; processes once per data.id', async () => {
    const e = event();
    expect(await receiver.handle(delivery(e))).toEqual({ status: 202, body: { received: true } });
    expect(await receiver.handle(delivery(e))).toEqual({
      status: 200,
      body: { received: true, duplicate: true },
    });
    // The dashboard test may wrap the same data.id in a new delivery id: stored, never processed twice.
    const again = { ...e, id: randomUUID() };
    expect((await receiver.handle(delivery(again))).status).toBe(202);
    expect(await receiver.processDue()).toBe(1);
    expect(processed.map((p) => p.data.id)).toEqual([e.data.id]);
    expect(store.stateOf(e.id)?.state).toBe('processed');
    expect(store.stateOf(again.id)?.state).toBe('duplicate');
  });

  it('accepts without an action in metadata', async () => {
    expect(
      (await receiver.handle(delivery(event({}, { metadata: { decisionMs: 1, signalEvidence: [] } }))))
        .status,
    ).toBe(202);
  });

  it('500 when durable storage fails: no acknowledgement', async () => {
    const broken: WebhookStore = {
      accept: async () => {
        throw new Error('disk full');
      },
      claimDue: async () => [],
      markProcessed: async () => undefined,
      markFailed: async () => undefined,
    };
    const r = createWebhookReceiver({ secret, store: broken, process: async () => undefined });
    expect((await r.handle(delivery(event()))).status).toBe(500);
  });

  it('retries processing apart from acceptance, then dead-letters', async () => {
    const memory = new MemoryWebhookStore();
    let calls = 0;
    const flaky = createWebhookReceiver({
      secret,
      store: memory,
      retryBaseMs: 1,
      maxProcessAttempts: 3,
      process: async () => {
        calls++;
        if (calls < 2) throw new Error('downstream unavailable');
      },
    });
    const e = event();
    expect((await flaky.handle(delivery(e))).status).toBe(202);
    await flaky.processDue();
    expect(memory.rows.get(e.id)?.state).toBe('pending');
    await new Promise((r) => setTimeout(r, 5));
    await flaky.processDue();
    expect(memory.rows.get(e.id)?.state).toBe('processed');
    const dead = createWebhookReceiver({
      secret,
      store: memory,
      retryBaseMs: 0,
      maxProcessAttempts: 2,
      process: async () => {
        throw new Error('always');
      },
    });
    const d = event();
    await dead.handle(delivery(d));
    await dead.processDue();
    await dead.processDue();
    expect(memory.rows.get(d.id)).toMatchObject({ state: 'dead', attempts: 2, lastError: 'always' });
  });

  /** A receiver whose downstream is down until `recover()`; `effects` lists what it processed. */
  function downstreamReceiver(target: WebhookStore, maxProcessAttempts: number) {
    const state = { failing: true, effects: [] as string[] };
    const r = createWebhookReceiver({
      secret,
      store: target,
      retryBaseMs: 0,
      maxProcessAttempts,
      process: async (x) => {
        if (state.failing) throw new Error('downstream down');
        state.effects.push(x.data.id);
      },
    });
    return { r, effects: state.effects, recover: () => (state.failing = false) };
  }

  it('lets a redelivery retry an effect that was dead-lettered (both stores)', async () => {
    for (const target of [store, new MemoryWebhookStore()] as WebhookStore[]) {
      const { r, effects, recover } = downstreamReceiver(target, 1);
      const first = event();
      await r.handle(delivery(first));
      await r.processDue();
      // The owner fixes the downstream and redelivers: same decision, a new delivery id.
      recover();
      const again = { ...first, id: randomUUID() };
      expect((await r.handle(delivery(again))).status).toBe(202);
      await r.processDue();
      expect(effects).toEqual([first.data.id]);
      // Once processed, a further redelivery has no effect.
      await r.handle(delivery({ ...first, id: randomUUID() }));
      await r.processDue();
      expect(effects).toEqual([first.data.id]);
    }
  });

  it('hands the effect to a delivery of the same decision that came while it was failing (both stores)', async () => {
    for (const target of [store, new MemoryWebhookStore()] as WebhookStore[]) {
      const { r, effects, recover } = downstreamReceiver(target, 2);
      const first = event();
      await r.handle(delivery(first));
      await r.processDue(); // attempt 1 of 2 fails; still pending
      // The dashboard test wraps the same decision meanwhile: acknowledged, kept as a duplicate.
      expect((await r.handle(delivery({ ...first, id: randomUUID() }))).status).toBe(202);
      await r.processDue(); // attempt 2 fails: dead letter, the duplicate takes over
      recover();
      await r.processDue();
      expect(effects).toEqual([first.data.id]);
    }
  });

  it('does not let one hung process() call stall the events behind it', async () => {
    const effects: string[] = [];
    const hung = event();
    const r = createWebhookReceiver({
      secret,
      store: new MemoryWebhookStore(),
      retryBaseMs: 60_000,
      processTimeoutMs: 20,
      process: (x) => {
        if (x.id === hung.id) return new Promise<void>(() => undefined);
        effects.push(x.data.id);
        return Promise.resolve();
      },
    });
    const after = event();
    await r.handle(delivery(hung));
    await r.handle(delivery(after));
    await r.processDue();
    expect(effects).toEqual([after.data.id]);
  });

  it('refuses to start without a secret', () => {
    expect(() => createWebhookReceiver({ secret: '', store, process: async () => undefined })).toThrow(
      TypeError,
    );
  });

  it('survives a restart: stored events are processed by a new receiver', async () => {
    const e = event();
    await receiver.handle(delivery(e));
    store.close();
    const reopened = new SqliteWebhookStore(path.join(dir, 'events.db'));
    const seen: string[] = [];
    const r2 = createWebhookReceiver({ secret, store: reopened, process: async (x) => void seen.push(x.id) });
    expect((await r2.handle(delivery(e))).status).toBe(200);
    await r2.processDue();
    expect(seen).toEqual([e.id]);
    store = reopened;
  });
});

describe('adapters', () => {
  const makeReceiver = () =>
    createWebhookReceiver({ secret, store: new MemoryWebhookStore(), process: async () => undefined });

  it('node:http reads the raw body', async () => {
    const server = http.createServer(nodeHttpHandler(makeReceiver()));
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
    const req = delivery(event());
    const first = await fetch(url, { method: 'POST', headers: req.headers, body: req.rawBody });
    const second = await fetch(url, { method: 'POST', headers: req.headers, body: req.rawBody });
    const bad = await fetch(url, {
      method: 'POST',
      headers: { ...req.headers, 'service-signature': 't=1,v1=x' },
      body: req.rawBody,
    });
    expect([first.status, second.status, bad.status]).toEqual([202, 200, 401]);
    // Over the limit: the sender reads 413 (not a connection reset).
    const status = await new Promise<number>((resolve, reject) => {
      const big = http.request(url, { method: 'POST', headers: { 'content-type': 'application/json' } });
      big.on('response', (r) => resolve(r.statusCode ?? 0));
      big.on('error', reject);
      big.end(Buffer.alloc(2 * 1024 * 1024, 32));
    });
    expect(status).toBe(413);
    server.closeAllConnections();
    server.close();
  });

  it('node:http writes the 202 before process() starts', async () => {
    let headersSentWhenProcessing: boolean | undefined;
    let response: http.ServerResponse | undefined;
    const receiver = createWebhookReceiver({
      secret,
      store: new MemoryWebhookStore(),
      process: async () => {
        headersSentWhenProcessing = response?.headersSent;
      },
    });
    receiver.start();
    const handler = nodeHttpHandler(receiver);
    const server = http.createServer((req, res) => {
      response = res;
      handler(req, res);
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const req = delivery(event());
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
    const res = await fetch(url, { method: 'POST', headers: req.headers, body: req.rawBody });
    expect(res.status).toBe(202);
    await expect.poll(() => headersSentWhenProcessing).toBe(true);
    await receiver.stop();
    server.closeAllConnections();
    server.close();
  });

  it('Express-style handler needs the raw body', async () => {
    const handler = expressHandler(makeReceiver());
    const answers: Array<[number, unknown]> = [];
    const res = {
      code: 0,
      status(c: number) {
        this.code = c;
        return this;
      },
      json(b: unknown) {
        answers.push([this.code, b]);
        return this;
      },
    };
    const req = delivery(event());
    await handler({ body: req.rawBody, headers: req.headers }, res);
    await handler({ body: JSON.parse(req.rawBody.toString()), headers: req.headers }, res);
    // Unsigned and unparsed (another media type): 401, as for any bad signature.
    await handler({ body: {}, headers: { 'content-type': 'text/plain' } }, res);
    expect(answers.map((a) => a[0])).toEqual([202, 500, 401]);
  });

  it('Fastify plugin keeps raw bytes for its route only', async () => {
    const app = Fastify();
    await app.register(fastifyWebhookPlugin(makeReceiver(), { path: '/hooks/warden' }));
    const req = delivery(event());
    const res = await app.inject({
      method: 'POST',
      url: '/hooks/warden',
      headers: req.headers,
      payload: req.rawBody,
    });
    expect(res.statusCode).toBe(202);
    const again = await app.inject({
      method: 'POST',
      url: '/hooks/warden',
      headers: req.headers,
      payload: req.rawBody,
    });
    expect(again.statusCode).toBe(200);
    // Unsigned, any media type: 401 before anything else (not Fastify's 415).
    for (const type of ['application/octet-stream', 'text/plain']) {
      const unsigned = await app.inject({
        method: 'POST',
        url: '/hooks/warden',
        headers: { 'content-type': type },
        payload: 'x',
      });
      expect(unsigned.statusCode).toBe(401);
    }
    await app.close();
  });
});
