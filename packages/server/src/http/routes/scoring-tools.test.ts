import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestWorkspace, type TestWorkspace } from '../../testing/accounts.ts';
import { createTestApp, type TestApp } from '../../testing/context.ts';
import { browserHeaders, mouseSamples, serverHeaders } from '../../testing/scoring-app.ts';

const FINGERPRINT = {
  canvas_hash: 'c0ffee',
  webgl: { vendor: 'V', renderer: 'R' },
  screen: { width: 1920, height: 1080 },
};

function solve(salt: string, challenge: string, maxnumber: number): number {
  for (let n = 0; n <= maxnumber; n++) {
    if (
      createHash('sha256')
        .update(salt + n)
        .digest('hex') === challenge
    )
      return n;
  }
  throw new Error('unsolvable');
}

describe('fingerprint and challenge routes', () => {
  let t: TestApp;
  let w: TestWorkspace;
  beforeAll(async () => {
    t = await createTestApp();
    w = await createTestWorkspace(t.ctx);
  });
  afterAll(() => t.close());

  const post = (url: string, headers: Record<string, string>, payload?: unknown) =>
    t.app.inject({
      method: 'POST',
      url: `/api/antibot${url}`,
      headers,
      ...(payload === undefined ? {} : { payload: payload as object }),
    });
  const browser = () => browserHeaders(w.site.siteKey);

  it('registers a fingerprint on both surfaces: 201 {token, device_id, expires_at}', async () => {
    for (const [url, headers] of [
      ['/fingerprint', browser()],
      ['/verify/fingerprint', serverHeaders(w.site)],
    ] as const) {
      const res = await post(url, headers, { fingerprint: FINGERPRINT });
      expect(res.statusCode, url).toBe(201);
      const data = res.json().data;
      expect(data).toEqual({
        token: expect.any(String),
        device_id: expect.any(String),
        expires_at: expect.any(String),
      });
    }
  });

  it('scores a token of any length or form as evidence: token_invalid, never a 400', async () => {
    for (const token of ['garbage', 'x'.repeat(5000), `wft1.${'A'.repeat(100_000)}.sig`]) {
      const res = await post('/verify', serverHeaders(w.site), {
        context: { event_type: 'login', account_id: 'acct_token' },
        token,
        fingerprint: FINGERPRINT,
      });
      expect(res.statusCode, `token of ${token.length}`).toBe(201);
      expect(res.json().data.signals.map((s: { rule: string }) => s.rule)).toContain('token_invalid');
    }
  });

  it('registers a fingerprint without stable attributes as no device; scoring then uses its own evidence', async () => {
    for (const [url, headers] of [
      ['/fingerprint', browser()],
      ['/verify/fingerprint', serverHeaders(w.site)],
    ] as const) {
      const res = await post(url, headers, { fingerprint: {} });
      expect(res.statusCode, url).toBe(201);
      expect(res.json().data).toMatchObject({ device_id: '', token: expect.any(String) });
    }
    const { token } = (await post('/fingerprint', browser(), { fingerprint: {} })).json().data;
    const context = { event_type: 'login', account_id: 'acct_no_device' };
    const bare = (await post('/verify', serverHeaders(w.site), { context, token })).json().data;
    // A valid token of this site: no token penalty, and no device to name.
    expect(bare.device_id).toBe('');
    expect(
      bare.signals.map((s: { rule: string }) => s.rule).filter((r: string) => r.startsWith('token')),
    ).toEqual([]);
    const withEvidence = await post('/verify', serverHeaders(w.site), {
      context,
      token,
      fingerprint: FINGERPRINT,
    });
    const registered = (await post('/fingerprint', browser(), { fingerprint: FINGERPRINT })).json().data;
    expect(withEvidence.json().data.device_id).toBe(registered.device_id);
  });

  it('keeps the device through a changed fingerprint by the visitor id; the token binds it', async () => {
    const visitor_id = 'f'.repeat(32);
    const fp = { ...FINGERPRINT, canvas_hash: 'visitor-canvas', platform: 'Win32' };
    const first = (await post('/fingerprint', browser(), { fingerprint: { ...fp, visitor_id } })).json().data;
    const changed = { ...fp, canvas_hash: 'rerendered', webgl: { vendor: 'V2', renderer: 'R2' }, visitor_id };
    const second = (await post('/fingerprint', browser(), { fingerprint: changed })).json().data;
    expect(second.device_id).toBe(first.device_id);
    const context = { event_type: 'login', account_id: 'acct_visitor' };
    const same = await post('/verify', serverHeaders(w.site), {
      context,
      token: second.token,
      fingerprint: changed,
    });
    expect(same.json().data.device_id).toBe(first.device_id);
    expect(same.json().data.signals.map((s: { rule: string }) => s.rule)).not.toContain(
      'token_device_mismatch',
    );
    // The token sent with another browser's visitor id (a replayed token).
    const replayed = await post('/verify', serverHeaders(w.site), {
      context,
      token: second.token,
      fingerprint: { ...changed, visitor_id: 'e'.repeat(32) },
    });
    expect(replayed.json().data.signals.map((s: { rule: string }) => s.rule)).toContain(
      'token_device_mismatch',
    );
  });

  it('refuses a visitor id the SDK would not make: 400 validation_failed at body.fingerprint.visitor_id', async () => {
    for (const visitor_id of ['short', 'has space in it 123456', 'x'.repeat(65), 42]) {
      const res = await post('/fingerprint', browser(), { fingerprint: { ...FINGERPRINT, visitor_id } });
      expect(res.statusCode, String(visitor_id)).toBe(400);
      expect(res.json().error.code).toBe('validation_failed');
      expect(res.json().error.details[0].path).toBe('body.fingerprint.visitor_id');
    }
  });

  it('validates fingerprint bodies (missing fingerprint, too many behaviour samples)', async () => {
    const missing = await post('/fingerprint', browser(), { behavior: {} });
    expect(missing.json().error.details[0].path).toBe('body.fingerprint');
    const samples = await post('/fingerprint', browser(), {
      fingerprint: FINGERPRINT,
      behavior: { mouse: mouseSamples(513) },
    });
    expect(samples.statusCode).toBe(400);
    expect(samples.json().error.details[0].path).toBe('body.behavior');
  });

  it('issues a challenge with no body or with a difficulty', async () => {
    const plain = await post('/challenge', browser());
    expect(plain.statusCode).toBe(201);
    expect(plain.json().data).toMatchObject({ algorithm: 'SHA-256', difficulty: expect.any(Number) });
    const high = await post('/verify/challenge', serverHeaders(w.site), { difficulty: 'high' });
    expect(high.json().data.difficulty).toBeGreaterThanOrEqual(20);
  });

  it.each([0, 27, 3.5, 'extreme', true, '14.0'])('refuses difficulty %s with 400', async (difficulty) => {
    const res = await post('/challenge', browser(), { difficulty });
    expect(res.statusCode).toBe(400);
    expect(res.json().error.code).toBe('validation_failed');
  });

  it('verifies a solved challenge once (200), then already_used', async () => {
    const descriptor = (await post('/challenge', browser(), { difficulty: 'low' })).json().data;
    const nonce = solve(descriptor.salt, descriptor.challenge, descriptor.maxnumber);
    const proof = { challenge_id: descriptor.challenge_id, nonce: String(nonce) };
    const ok = await post('/challenge/verify', browser(), proof);
    expect(ok.statusCode).toBe(200);
    expect(ok.json().data).toMatchObject({
      valid: true,
      challenge_id: descriptor.challenge_id,
      verified_at: expect.any(String),
    });
    const again = await post('/verify/challenge/verify', serverHeaders(w.site), proof);
    expect(again.json().data).toMatchObject({ valid: false, reason: 'already_used' });
  });

  it('answers an unknown challenge with valid:false, and a malformed proof with 400', async () => {
    const unknown = await post('/challenge/verify', browser(), { challenge_id: 'nope', nonce: 1 });
    expect(unknown.statusCode).toBe(200);
    expect(unknown.json().data).toMatchObject({ valid: false, reason: 'unknown_challenge' });
    const malformed = await post('/challenge/verify', browser(), { challenge_id: 'x' });
    expect(malformed.json().error.details[0].path).toBe('body.nonce');
  });

  it('needs site auth on every tool route', async () => {
    for (const url of ['/fingerprint', '/challenge', '/challenge/verify']) {
      const res = await post(url, { 'x-site-key': w.site.siteKey, origin: 'https://evil.test' }, {});
      expect(res.statusCode, url).toBe(403);
    }
    for (const url of ['/verify/fingerprint', '/verify/challenge', '/verify/challenge/verify']) {
      const res = await post(url, { 'x-site-key': w.site.siteKey }, {});
      expect(res.json().error.code, url).toBe('missing_secret_key');
    }
  });
});
