// `warden serve --workers 2` on loopback: every request on its own connection, so the primary's
// round robin alternates the workers; what must be shared behaves exactly as in one process.
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { solveChallenge } from 'altcha-lib/v1';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type PackedColumns, unpackDecision } from '../decisions/packed-row.ts';
import { childrenOf, request, type ServedCluster, startCluster, stopCluster } from './serve-harness.ts';

const dirs: string[] = [];
function tempDir(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'warden-workers-'));
  dirs.push(dir);
  return dir;
}

function server(s: ServedCluster) {
  const keys = { 'x-site-key': s.demo.siteKey, 'x-secret-key': s.demo.secretKey };
  return {
    verify: (body: unknown) => request(s.baseUrl, 'POST', '/api/antibot/verify', body, keys),
    post: (route: string, body: unknown) => request(s.baseUrl, 'POST', route, body, keys),
  };
}

const login = (account: string, ip: string, extra: Record<string, unknown> = {}) => ({
  context: {
    event_type: 'login',
    account_id: account,
    ip_address: ip,
    user_agent: 'Mozilla/5.0 (X11; Linux x86_64) Firefox/128.0',
    login_succeeded: false,
    ...extra,
  },
});

/** The recorded features of decisions, read from the SQLite file (WAL: readers never wait). */
function recordedFeatures(dataDir: string, ids: string[]): Array<Record<string, unknown>> {
  const db = new Database(path.join(dataDir, 'warden.db'), { readonly: true, fileMustExist: true });
  try {
    const row = db.prepare('select * from decisions where id = ?');
    return ids.map((id) => JSON.parse(unpackDecision(row.get(id) as PackedColumns).features));
  } finally {
    db.close();
  }
}

/** GET on a new connection (the primary's round robin picks the worker), as text. */
function getText(baseUrl: string, route: string): Promise<string> {
  return new Promise((resolve, reject) => {
    http
      .get(`${baseUrl}${route}`, { agent: false }, (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (chunk) => {
          text += chunk;
        });
        res.on('end', () => resolve(text));
      })
      .on('error', reject);
  });
}

/** The sum of a Prometheus counter's series in a /metrics text. */
function counterTotal(text: string, name: string): number {
  return text
    .split('\n')
    .filter((line) => line.startsWith(`${name}{`) || line.startsWith(`${name} `))
    .reduce((sum, line) => sum + Number(line.slice(line.lastIndexOf(' ') + 1)), 0);
}

afterAll(() => {
  for (const dir of dirs) fs.rmSync(dir, { recursive: true, force: true });
});

describe('serve --workers 2', () => {
  let s: ServedCluster;
  beforeAll(async () => {
    s = await startCluster(tempDir(), 2, { WARDEN_RATE_SERVER_PER_SECOND: '1000' });
  }, 240_000);
  afterAll(async () => {
    if (s) await stopCluster(s);
  });

  it('runs two workers under the primary', () => {
    expect(childrenOf(s.child.pid!)).toHaveLength(2);
  });

  it('counts velocity across workers as one process does', { timeout: 60_000 }, async () => {
    const ids: string[] = [];
    for (let i = 0; i < 6; i++) {
      const answer = await server(s).verify(login(`victim_${i}`, '198.51.100.23'));
      expect(answer.status).toBe(201);
      ids.push(answer.body.data!.request_id as string);
    }
    const counts = recordedFeatures(s.dataDir, ids).map(
      (f) => (f.history as { failed_logins_ip_1h: number }).failed_logins_ip_1h,
    );
    expect(counts).toEqual([1, 2, 3, 4, 5, 6]);
  });

  it('answers /metrics with every process summed, whichever worker takes the scrape', {
    timeout: 60_000,
  }, async () => {
    const scrape = async () => {
      const texts = [await getText(s.baseUrl, '/metrics'), await getText(s.baseUrl, '/metrics')];
      return texts.map((text) => counterTotal(text, 'warden_decisions_total'));
    };
    const before = await scrape();
    for (let i = 0; i < 5; i++)
      expect((await server(s).verify(login(`metrics_${i}`, `198.51.100.${60 + i}`))).status).toBe(201);
    const after = await scrape();
    // Two scrapes in a row land on both workers: each worker alone counted only its own decisions.
    expect(before[1]).toBe(before[0]);
    expect(after.map((total) => total - before[0]!)).toEqual([5, 5]);
    // The primary's own metrics are in it too (its webhook dispatcher).
    expect(await getText(s.baseUrl, '/metrics')).toContain('warden_webhook_queue_depth');
  });

  it('replays an idempotency key on another worker and refuses another body with 409', {
    timeout: 60_000,
  }, async () => {
    const body = { ...login('idem_user', '198.51.100.24'), idempotency_key: `k-${Date.now()}` };
    const first = await server(s).verify(body);
    const again = await server(s).verify(body);
    expect(first.status).toBe(201);
    expect(again.status).toBe(200);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(again.body.data!.request_id).toBe(first.body.data!.request_id);
    const other = await server(s).verify({ ...body, context: { ...body.context, account_id: 'someone' } });
    expect(other.status).toBe(409);
    // Concurrent first uses of one key: one decision, the other replays it or is refused while in flight.
    const key = `c-${Date.now()}`;
    const both = await Promise.all([0, 1].map(() => server(s).verify({ ...body, idempotency_key: key })));
    expect(both.map((a) => a.status).filter((st) => st === 201)).toHaveLength(1);
  });

  it('lets a proof-of-work solution be used once, whichever worker sees it', {
    timeout: 60_000,
  }, async () => {
    const issued = await server(s).post('/api/antibot/verify/challenge', { difficulty: 8 });
    expect(issued.status).toBe(201);
    const d = issued.body.data as {
      challenge_id: string;
      challenge: string;
      salt: string;
      algorithm: string;
      maxnumber: number;
    };
    const solution = await solveChallenge(d.challenge, d.salt, d.algorithm, d.maxnumber).promise;
    const proof = { challenge_id: d.challenge_id, nonce: solution!.number };
    const answers = await Promise.all(
      [0, 1, 2, 3].map(() => server(s).post('/api/antibot/verify/challenge/verify', proof)),
    );
    const valid = answers.map((a) => (a.body.data as { valid: boolean }).valid);
    expect(valid.filter(Boolean)).toHaveLength(1);
  });

  it('keeps one rate limit for all workers', { timeout: 60_000 }, async () => {
    // Sign-ins per account: WARDEN_RATE_LOGIN_PER_MINUTE_ACCOUNT, 10 a minute by default.
    const attempt = { email: `nobody-${Date.now()}@example.com`, password: 'wrong password' };
    const answers = await Promise.all(
      Array.from({ length: 14 }, () => request(s.baseUrl, 'POST', '/api/auth/login', attempt)),
    );
    const statuses = answers.map((a) => a.status);
    expect(statuses.filter((st) => st === 401)).toHaveLength(10);
    expect(statuses.filter((st) => st === 429)).toHaveLength(4);
  });

  it('refuses keys rotated through one worker on every worker at once', { timeout: 60_000 }, async () => {
    const creds = JSON.parse(fs.readFileSync(path.join(s.dataDir, 'demo-credentials.json'), 'utf8'));
    const signedIn = await request(s.baseUrl, 'POST', '/api/auth/login', {
      email: creds.email,
      password: creds.password,
    });
    expect(signedIn.status).toBe(200);
    const auth = { authorization: `Bearer ${signedIn.body.data!.accessToken as string}` };
    const created = await request(
      s.baseUrl,
      'POST',
      '/api/sites',
      { workspaceId: creds.workspaceId, name: 'Rotated', allowedOrigins: [] },
      auth,
    );
    expect(created.status).toBe(201);
    const site = created.body.data as { id: string; siteKey: string; secretKey: string };
    const keys = { 'x-site-key': site.siteKey, 'x-secret-key': site.secretKey };
    const verify = () =>
      request(s.baseUrl, 'POST', '/api/antibot/verify', login('rotation', '198.51.100.27'), keys);
    // Every worker (round robin) now remembers the site for up to 1 s.
    const warm = [];
    for (let i = 0; i < 4; i++) warm.push((await verify()).status);
    expect(warm).toEqual([201, 201, 201, 201]);
    const rotated = await request(s.baseUrl, 'POST', `/api/sites/${site.id}/rotate-keys`, undefined, auth);
    expect(rotated.status).toBe(200);
    // The next requests, on both workers, well within that 1 s: the old keys are gone everywhere.
    const after = [];
    for (let i = 0; i < 4; i++) after.push((await verify()).body.error?.code);
    expect(after).toEqual(['invalid_site_key', 'invalid_site_key', 'invalid_site_key', 'invalid_site_key']);
  });

  it('starts a killed worker again and loses nothing it acknowledged', { timeout: 120_000 }, async () => {
    const before = await server(s).verify(login('before_crash', '198.51.100.26'));
    expect(before.status).toBe(201);
    const [victim] = childrenOf(s.child.pid!);
    process.kill(victim!, 'SIGKILL');
    const deadline = Date.now() + 90_000;
    while (Date.now() < deadline) {
      const workers = childrenOf(s.child.pid!);
      if (workers.length === 2 && !workers.includes(victim!)) {
        const ready = await request(s.baseUrl, 'GET', '/readyz').catch(() => null);
        if (ready?.status === 200) break;
      }
      await new Promise((r) => setTimeout(r, 200));
    }
    expect(childrenOf(s.child.pid!)).not.toContain(victim);
    expect(childrenOf(s.child.pid!)).toHaveLength(2);
    const answers = [];
    for (let i = 0; i < 4; i++) answers.push(await server(s).verify(login('after_crash', '198.51.100.26')));
    expect(answers.map((a) => a.status)).toEqual([201, 201, 201, 201]);
    const ids = [before, ...answers].map((a) => a.body.data!.request_id as string);
    // Recorded before its answer, and the hot state (the primary's) kept counting across the crash.
    const counts = recordedFeatures(s.dataDir, ids).map(
      (f) => (f.history as { failed_logins_ip_1h: number }).failed_logins_ip_1h,
    );
    expect(counts).toEqual([1, 2, 3, 4, 5]);
  });
});

/** A stream whose decisions depend on shared state: velocity, fan-out, identity clusters, promo reuse. */
function eventStream(): unknown[] {
  const ua = 'Mozilla/5.0 (X11; Linux x86_64) Firefox/128.0';
  const events: unknown[] = [];
  for (let i = 0; i < 8; i++) events.push(login(`stream_victim_${i % 5}`, '203.0.113.77'));
  for (let i = 0; i < 6; i++) {
    events.push({
      context: {
        event_type: 'signup',
        account_id: `stream_new_${i}`,
        email: `user${i}@mailinator.com`,
        ip_address: `203.0.113.${80 + (i % 2)}`,
        user_agent: ua,
        promo_code: 'WELCOME10',
      },
    });
  }
  for (let i = 0; i < 8; i++) {
    events.push({
      context: {
        event_type: 'checkout',
        account_id: `stream_new_${i % 4}`,
        payment_hash: `card_${i % 3}`,
        order_amount: 5 + i,
        ip_address: '203.0.113.90',
        user_agent: ua,
      },
    });
  }
  return events;
}

describe('the same event stream on --workers 1 and --workers 2', () => {
  it('gets the same decisions', { timeout: 400_000 }, async () => {
    const outcomes: string[][] = [];
    for (const workers of [1, 2]) {
      const served = await startCluster(tempDir(), workers);
      try {
        const seen: string[] = [];
        const ids: string[] = [];
        for (const event of eventStream()) {
          const answer = await server(served).verify(event);
          expect(answer.status).toBe(201);
          const d = answer.body.data as {
            request_id: string;
            risk_score: number;
            action: string;
            signals: Array<{ rule: string }>;
          };
          ids.push(d.request_id);
          seen.push(
            `${d.risk_score} ${d.action} ${d.signals
              .map((x) => x.rule)
              .sort()
              .join(',')}`,
          );
        }
        // And what the signals were computed from: the velocity counters and the identity cluster.
        recordedFeatures(served.dataDir, ids).forEach((f, i) => {
          const counters = Object.entries((f.history ?? {}) as Record<string, unknown>)
            .filter(([name, value]) => typeof value === 'number' && /_(\d+[mhd])$/.test(name))
            .map(([name, value]) => `${name}=${value}`)
            .sort();
          const identity = (f.identity ?? {}) as Record<string, unknown>;
          seen[i] +=
            ` | ${counters.join(' ')} | linked=${identity.linked_accounts} payments=${identity.shared_payments}`;
        });
        outcomes.push(seen);
      } finally {
        await stopCluster(served);
      }
    }
    expect(outcomes[1]).toEqual(outcomes[0]);
    // The stream is one that shared state changes: not every decision is the same.
    expect(new Set(outcomes[0]).size).toBeGreaterThan(10);
    expect(outcomes[0]!.some((o) => /linked=[1-9]/.test(o))).toBe(true);
  });
});
