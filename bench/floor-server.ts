/**
 * The minimal /verify servers of `npm run bench:floor` (levels 2–4; level 1 is the bench's echo),
 * written for speed: what the interface obliges per decision, with no scoring at all. Bundled and
 * run like the echo; `--level N`, settings in the environment (FLOOR_*), prints `{"port": N}` on
 * stdout once listening; stops on SIGTERM.
 *   2  Fastify's JSON body parser, the site key + secret key check, the body checked against the
 *      interface's VerificationRequest schema (TypeBox's compiled check, as Warden's route) and the
 *      behaviour-sample limit; a constant decision (fresh request_id and timestamps) answered 201.
 *   3  + the decision row (Warden's columns and indexes, JSON columns of Warden's sizes) and, for a
 *      keyed body, its idempotency-key row, group-committed on a writer thread; answered after commit.
 *      Checkpoints off the commit path as Warden's: its WAL checkpointer thread
 *      (storage/wal-checkpointer.ts) copies the WAL on a timer, `wal_autocheckpoint` only a backstop.
 *   4  + the decision.created outbox row in the same commit, after it an HMAC-SHA256-signed POST to
 *      FLOOR_WEBHOOK_URL over keep-alive undici, and the delivered marks written in the next commit.
 */
import { createHash, createHmac, randomUUID, timingSafeEqual } from 'node:crypto';
import { Worker } from 'node:worker_threads';
import type { TSchema } from '@sinclair/typebox';
import { TypeCompiler } from '@sinclair/typebox/compiler';
import { type Signal, VerificationRequest } from '@warden/protocol';
import Fastify from 'fastify';
import { Pool } from 'undici';
import { WalCheckpointer } from '../packages/server/src/storage/wal-checkpointer.ts';

const level = Number(process.argv[process.argv.indexOf('--level') + 1]);
const env = (name: string) => process.env[`FLOOR_${name}`] ?? '';
const SITE_ID = env('SITE_ID');
const SITE_KEY = env('SITE_KEY');
const SECRET_KEY = Buffer.from(env('SECRET_KEY'));
const WORKSPACE_ID = randomUUID();
const LEAN_ROW = env('LEAN_ROW') === '1';
const MAX_BEHAVIOR_SAMPLES = 2048;

type Body = {
  context: {
    event_type: string;
    account_id: string;
    email?: string;
    ip_address?: string;
    user_agent?: string;
    order_amount?: number;
    payment_hash?: string;
    promo_code?: string;
  };
  behavior?: unknown;
  idempotency_key?: string;
};

/** A UUID version 7 (time first), as Warden's decision and delivery ids (decisions/decision-id.ts). */
function timeOrderedId(nowMs: number): string {
  const time = nowMs.toString(16).padStart(12, '0');
  return `${time.slice(0, 8)}-${time.slice(8)}-7${randomUUID().slice(15)}`;
}

/** Array elements inside `value` at any depth, stopping past `limit` (interface §8). */
function samples(value: unknown, limit: number): number {
  let total = 0;
  const stack: unknown[] = [value];
  while (stack.length > 0 && total <= limit) {
    const current = stack.pop();
    if (current === null || typeof current !== 'object') continue;
    if (Array.isArray(current)) {
      total += current.length;
      for (const item of current) if (item !== null && typeof item === 'object') stack.push(item);
    } else for (const key in current) stack.push((current as Record<string, unknown>)[key]);
  }
  return total;
}

const SIGNALS: Signal[] = [
  { rule: 'no_device_evidence', score: 15, description: 'No fingerprint token and no fingerprint evidence.' },
];
const SIGNALS_JSON = JSON.stringify(SIGNALS);
const IDENTITY = {
  cluster_id: 'cl_floor',
  linked_accounts: 0,
  shared_devices: 0,
  shared_ips: 0,
  shared_payments: 0,
};
// Warden's rows carry ~2.8 KB of features, ~1.3 KB of evidence and ~0.6 KB of rule input (JSON);
// the floor writes as many bytes (the writer's cost grows with them) without computing them.
const FEATURES_PAD = LEAN_ROW ? '' : 'f'.repeat(2700);
const EVIDENCE_PAD = LEAN_ROW ? '' : 'e'.repeat(1250);
const RULE_INPUT_PAD = LEAN_ROW ? '' : 'r'.repeat(450);

interface Waiting {
  resolve: (taken: boolean) => void;
  reject: (err: Error) => void;
}

/** Group commit through the writer thread: one group in flight, the next one gathering meanwhile. */
function writerThread() {
  const worker = new Worker(env('WRITER'), { workerData: { file: env('DB'), siteId: SITE_ID } });
  let group = { keys: [] as unknown[], decisions: [] as unknown[][], deliveries: [] as unknown[] };
  let waiting: Waiting[] = [];
  let delivered: string[] = [];
  let inFlight: Waiting[] | undefined;
  let scheduled = false;
  const flush = () => {
    scheduled = false;
    if (inFlight || (waiting.length === 0 && delivered.length === 0)) return;
    inFlight = waiting;
    worker.postMessage({ ...group, delivered, now: Date.now() });
    group = { keys: [], decisions: [], deliveries: [] };
    waiting = [];
    delivered = [];
  };
  const schedule = () => {
    if (!scheduled && !inFlight) {
      scheduled = true;
      setImmediate(flush);
    }
  };
  const ready = new Promise<void>((resolve) => worker.once('message', () => resolve()));
  worker.on('message', (m: { type: string; taken?: number[]; error?: string }) => {
    const done = inFlight ?? [];
    inFlight = undefined;
    const taken = new Set(m.taken ?? []);
    for (let i = 0; i < done.length; i++)
      if (m.type === 'failed') done[i]!.reject(new Error(m.error));
      else done[i]!.resolve(taken.has(i));
    schedule();
  });
  return {
    ready,
    /** Resolves once the rows are durable: true when the idempotency key was taken already. */
    write(key: unknown[] | null, decision: unknown[], delivery: unknown[] | null): Promise<boolean> {
      group.keys.push(key);
      group.decisions.push(decision);
      group.deliveries.push(delivery);
      schedule();
      return new Promise((resolve, reject) => waiting.push({ resolve, reject }));
    },
    delivered(id: string): void {
      delivered.push(id);
      schedule();
    },
  };
}

const writer = level >= 3 ? writerThread() : undefined;
const hookUrl = level >= 4 ? new URL(env('WEBHOOK_URL')) : undefined;
const hooks = hookUrl ? new Pool(hookUrl.origin, { connections: 32, keepAliveTimeout: 4_000 }) : undefined;
const hookSecret = Buffer.from(env('WEBHOOK_SECRET'), 'utf8');

/** One signed delivery (interface §5 rule 7, §6.2); a 2xx is marked delivered in the next commit. */
async function deliver(id: string, payload: string): Promise<void> {
  const t = Math.floor(Date.now() / 1000);
  const signature = createHmac('sha256', hookSecret).update(`${t}.`).update(payload).digest('hex');
  const res = await hooks!.request({
    method: 'POST',
    path: hookUrl!.pathname,
    headers: {
      'content-type': 'application/json',
      'user-agent': 'Service-Webhooks/1.0',
      'service-delivery': id,
      'service-signature': `t=${t},v1=${signature}`,
    },
    body: payload,
  });
  await res.body.dump();
  if (res.statusCode >= 200 && res.statusCode < 300) writer!.delivered(id);
}

/** The decision.created event of a decision (interface §6.3), serialised once. */
function payloadOf(
  deliveryId: string,
  decisionId: string,
  body: Body,
  deviceId: string,
  now: string,
): string {
  const c = body.context;
  return JSON.stringify({
    id: deliveryId,
    type: 'decision.created',
    createdAt: now,
    data: {
      id: decisionId,
      siteId: SITE_ID,
      accountId: `acct_${createHash('sha256').update(`${SITE_ID}:${c.account_id}`).digest('hex').slice(0, 24)}`,
      type: c.event_type,
      riskScore: 15,
      riskLevel: 'low',
      classification: 'human',
      signals: { no_device_evidence: 15 },
      rulesTriggered: ['no_device_evidence'],
      deviceFingerprint: deviceId,
      ipAddress: c.ip_address ?? '',
      userAgent: c.user_agent ?? '',
      metadata: {
        action: 'allow',
        ...(c.order_amount !== undefined ? { amount: c.order_amount } : {}),
        ...(c.payment_hash !== undefined ? { paymentHash: c.payment_hash } : {}),
        decisionMs: 0.1,
        signalEvidence: [{ name: SIGNALS[0]!.rule, score: 15, description: SIGNALS[0]!.description }],
      },
      createdAt: now,
    },
  });
}

const app = Fastify({ bodyLimit: 256 * 1024 });
// Fastify's own JSON parser (prototype-poisoning checks included), keeping the raw text for the
// idempotency key's body hash.
const parseJson = app.getDefaultJsonParser('error', 'error');
app.removeContentTypeParser('application/json');
app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, raw, done) => {
  const text = raw as string;
  (request as unknown as { raw: { text: string } }).raw.text = text;
  parseJson(request, text, done);
});
app.setValidatorCompiler(({ schema }) => {
  const check = TypeCompiler.Compile(schema as TSchema);
  return (value: unknown) => (check.Check(value) ? { value } : { error: new Error('validation_failed') });
});

app.post('/api/antibot/verify', { schema: { body: VerificationRequest } }, async (request, reply) => {
  const secret = request.headers['x-secret-key'];
  const secretBytes = typeof secret === 'string' ? Buffer.from(secret) : undefined;
  if (
    request.headers['x-site-key'] !== SITE_KEY ||
    !secretBytes ||
    secretBytes.length !== SECRET_KEY.length ||
    !timingSafeEqual(secretBytes, SECRET_KEY)
  )
    return reply.status(401).send({ success: false });
  const body = request.body as Body;
  if (body.behavior !== undefined && samples(body.behavior, MAX_BEHAVIOR_SAMPLES) > MAX_BEHAVIOR_SAMPLES)
    return reply.status(400).send({ success: false });
  const c = body.context;
  const nowMs = Date.now();
  const now = new Date(nowMs).toISOString();
  const id = timeOrderedId(nowMs);
  const deviceId = `dev_${createHash('sha256')
    .update(`${c.ip_address}|${c.user_agent}`)
    .digest('hex')
    .slice(0, 24)}`;
  const response = JSON.stringify({
    classification: 'human',
    risk_score: 15,
    risk_level: 'low',
    action: 'allow',
    request_id: id,
    device_id: deviceId,
    signals: SIGNALS,
    identity: IDENTITY,
    decision_ms: 0.1,
    timestamp: now,
    ruleset_version: 'rs_floor',
    idempotent_replay: false,
  });
  if (writer) {
    const key = body.idempotency_key;
    const raw = (request.raw as unknown as { text: string }).text;
    const deliveryId = level >= 4 ? timeOrderedId(nowMs) : undefined;
    const payload = deliveryId ? payloadOf(deliveryId, id, body, deviceId, now) : undefined;
    const taken = await writer.write(
      key ? [SITE_ID, key, createHash('sha256').update(raw).digest('base64url'), id, nowMs] : null,
      [
        id,
        SITE_ID,
        WORKSPACE_ID,
        c.event_type,
        c.account_id,
        c.email ?? null,
        c.ip_address ?? '',
        c.user_agent ?? '',
        deviceId,
        c.payment_hash ?? null,
        c.promo_code ?? null,
        c.order_amount ?? null,
        15,
        'low',
        'human',
        'allow',
        SIGNALS_JSON,
        `{"event_type":"${c.event_type}","device_id":"${deviceId}","pad":"${FEATURES_PAD}"}`,
        `{"device":{"id":"${deviceId}"},"pad":"${EVIDENCE_PAD}"}`,
        response,
        'rs_floor',
        0.1,
        nowMs,
        'cl_floor',
        LEAN_ROW ? null : `{"v":1,"device_id":"${deviceId}","pad":"${RULE_INPUT_PAD}"}`,
        null,
      ],
      deliveryId ? [deliveryId, SITE_ID, id, payload, nowMs, nowMs, nowMs, nowMs] : null,
    );
    if (taken) return reply.status(409).send({ success: false });
    if (deliveryId) void deliver(deliveryId, payload!).catch(() => undefined);
  }
  return reply
    .status(201)
    .type('application/json')
    .send(`{"success":true,"data":${response},"timestamp":"${now}"}`);
});

await writer?.ready;
// As Warden's (decisions/group-commit.ts), once the writer has made the file: no commit of the
// writer thread runs a checkpoint.
const checkpointer = writer
  ? new WalCheckpointer(
      env('DB'),
      () => undefined,
      (message) => process.emitWarning(message),
    )
  : undefined;
const address = await app.listen({ host: '127.0.0.1', port: 0 });
process.stdout.write(`${JSON.stringify({ port: Number(new URL(address).port) })}\n`);
process.once('SIGTERM', () => {
  app
    .close()
    .then(() => checkpointer?.close())
    .then(() => process.exit(0));
});
