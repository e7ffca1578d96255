import { createHmac } from 'node:crypto';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { AppContext } from '../context.ts';
import { FINGERPRINT, testSite } from '../scoring/test-fixtures.ts';
import { createTestContext } from '../testing/context.ts';
import { deviceIdFromEvidence, stableFingerprint } from './device-id.ts';
import { hardwareProfileFromStable, hardwareProfileOf } from './hardware.ts';
import { registerFingerprint } from './register.ts';
import { fingerprintTokenKey, signToken, TOKEN_TTL_MS, type TokenBinding, verifyToken } from './token.ts';

describe('device id', () => {
  it('is stable for the same browser whatever the window, time, nonce or user agent version', () => {
    const a = deviceIdFromEvidence(FINGERPRINT);
    const b = deviceIdFromEvidence({
      ...FINGERPRINT,
      user_agent: FINGERPRINT.user_agent.replace('126', '127'),
      fonts: ['Segoe UI', 'Arial', 'Calibri', 'Arial'],
      screen: { width: 1080, height: 1920, color_depth: 24, pixel_ratio: 1.0000001 },
      window: { inner_width: 800 },
      timestamp: Date.now(),
      nonce: 'n1',
    });
    expect(a).toMatch(/^dev_[0-9a-f]{24}$/);
    expect(b).toBe(a);
  });

  it('differs between browsers (other canvas, other renderer, other screen or display scale)', () => {
    const a = deviceIdFromEvidence(FINGERPRINT);
    expect(deviceIdFromEvidence({ ...FINGERPRINT, canvas_hash: 'beef' })).not.toBe(a);
    expect(
      deviceIdFromEvidence({ ...FINGERPRINT, webgl: { unmasked_vendor: 'Apple', unmasked_renderer: 'M2' } }),
    ).not.toBe(a);
    expect(
      deviceIdFromEvidence({ ...FINGERPRINT, screen: { ...FINGERPRINT.screen, pixel_ratio: 2 } }),
    ).not.toBe(a);
    expect(deviceIdFromEvidence({ ...FINGERPRINT, hardware_concurrency: 4 })).not.toBe(a);
  });

  it('stays through what a person changes: time zone, languages, page zoom (chromium), window', () => {
    const a = deviceIdFromEvidence({
      ...FINGERPRINT,
      screen: { ...FINGERPRINT.screen, inner_width: 1280, outer_width: 1280 },
    });
    expect(deviceIdFromEvidence({ ...FINGERPRINT, timezone: 'America/New_York' })).toBe(a);
    expect(deviceIdFromEvidence({ ...FINGERPRINT, languages: ['de-DE', 'de', 'en-US'] })).toBe(a);
    // Chromium at 110 %: pixel ratio 1.1 (a float32), innerWidth 1164 of an unchanged outerWidth 1280.
    const zoomed = {
      ...FINGERPRINT.screen,
      pixel_ratio: 1.100000023841858,
      inner_width: 1164,
      outer_width: 1280,
    };
    expect(deviceIdFromEvidence({ ...FINGERPRINT, screen: zoomed })).toBe(a);
    const windowed = { ...FINGERPRINT.screen, inner_width: 800, outer_width: 800 };
    expect(deviceIdFromEvidence({ ...FINGERPRINT, screen: windowed })).toBe(a);
  });

  it('is "" without stable attributes', () => {
    expect(deviceIdFromEvidence({})).toBe('');
    expect(deviceIdFromEvidence(undefined)).toBe('');
    expect(deviceIdFromEvidence({ user_agent: 'x', window: { inner_width: 3 } })).toBe('');
  });
});

describe('hardware profile', () => {
  const profile = (fp: unknown) => hardwareProfileFromStable(stableFingerprint(fp));
  const webgl = { ...FINGERPRINT.webgl, hash: 'img-1' };

  it('stays put when an anti-detect browser re-rolls canvas, audio and WebGL image noise', () => {
    const a = { ...FINGERPRINT, webgl };
    const b = {
      ...FINGERPRINT,
      canvas_hash: 'n0153',
      audio_hash: '124.0435',
      webgl: { ...webgl, hash: 'img-2' },
    };
    expect(deviceIdFromEvidence(b)).not.toBe(deviceIdFromEvidence(a));
    expect(profile(a)).toMatch(/^hw_[0-9a-f]{16}$/);
    expect(profile(b)).toBe(profile(a));
  });

  it('differs with the machine or its set-up (GPU, screen, fonts), not with the time zone', () => {
    const a = profile(FINGERPRINT);
    expect(
      profile({ ...FINGERPRINT, webgl: { ...webgl, unmasked_renderer: 'ANGLE (Intel UHD 620)' } }),
    ).not.toBe(a);
    expect(
      profile({ ...FINGERPRINT, screen: { ...FINGERPRINT.screen, width: 2560, height: 1440 } }),
    ).not.toBe(a);
    expect(profile({ ...FINGERPRINT, fonts: [...FINGERPRINT.fonts, 'Consolas'] })).not.toBe(a);
    expect(profile({ ...FINGERPRINT, timezone: 'America/Chicago' })).toBe(a);
  });

  it('is "" when the evidence is too thin to describe a machine', () => {
    expect(profile({ canvas_hash: 'c', audio_hash: 'a', webgl: { hash: 'w' }, timezone: 'UTC' })).toBe('');
    expect(profile(undefined)).toBe('');
  });
});

describe('tokens', () => {
  const secret = fingerprintTokenKey('s'.repeat(32));
  const now = 1_700_000_000_000;
  const binding: TokenBinding = {
    fingerprintId: 'dev_2',
    visitorId: 'v'.repeat(32),
    link: 'fuzzy',
    confidence: 0.8,
    visitorConflict: true,
  };

  it('verifies for its site until it expires after 10 minutes', () => {
    const token = signToken(secret, 'site_a', 'dev_1', now + TOKEN_TTL_MS, binding);
    expect(verifyToken(secret, token, 'site_a', now)).toEqual({
      status: 'valid',
      siteId: 'site_a',
      deviceId: 'dev_1',
      expiresAt: now + TOKEN_TTL_MS,
      binding,
    });
    expect(verifyToken(secret, token, 'site_a', now + TOKEN_TTL_MS - 1).status).toBe('valid');
    expect(verifyToken(secret, token, 'site_a', now + TOKEN_TTL_MS).status).toBe('expired');
    expect(verifyToken(secret, token, 'site_b', now).status).toBe('site_mismatch');
  });

  it('still verifies a token of three lines (issued before the binding) as an exact link', () => {
    const payload = Buffer.from(`site_a\ndev_1\n${now + TOKEN_TTL_MS}`).toString('base64url');
    const mac = createHmac('sha256', secret).update(payload).digest('base64url');
    expect(verifyToken(secret, `wft1.${payload}.${mac}`, 'site_a', now)).toMatchObject({
      status: 'valid',
      deviceId: 'dev_1',
      binding: {
        fingerprintId: 'dev_1',
        visitorId: '',
        link: 'exact',
        confidence: 1,
        visitorConflict: false,
      },
    });
  });

  it('rejects garbage, tampering and another secret', () => {
    const token = signToken(secret, 'site_a', 'dev_1', now + TOKEN_TTL_MS, binding);
    expect(verifyToken(secret, 'garbage', 'site_a', now).status).toBe('invalid');
    expect(verifyToken(secret, 42, 'site_a', now).status).toBe('invalid');
    const [p, b, m] = token.split('.');
    const forged = Buffer.from(`site_a\ndev_2\n${now + TOKEN_TTL_MS}`).toString('base64url');
    expect(verifyToken(secret, `${p}.${forged}.${m}`, 'site_a', now).status).toBe('invalid');
    expect(verifyToken(fingerprintTokenKey('t'.repeat(32)), token, 'site_a', now).status).toBe('invalid');
    expect(b).toBeTruthy();
  });
});

describe('registerFingerprint', () => {
  let ctx: AppContext;
  let clock = 1_700_000_000_000;
  beforeEach(async () => {
    ctx = await createTestContext();
    ctx.now = () => clock;
  });
  afterEach(async () => {
    await ctx.hotState.close();
    await ctx.database.close();
  });

  it('answers token, device id and expiry 10 minutes ahead (injected clock)', async () => {
    const site = testSite();
    const reg = await registerFingerprint(ctx, site, { fingerprint: FINGERPRINT });
    expect(reg.device_id).toBe(deviceIdFromEvidence(FINGERPRINT));
    expect(reg.expires_at).toBe(new Date(clock + TOKEN_TTL_MS).toISOString());
    expect(verifyToken(ctx.services.keys.fingerprintToken, reg.token, site.id, ctx.now())).toMatchObject({
      status: 'valid',
      deviceId: reg.device_id,
    });
    clock += TOKEN_TTL_MS;
    expect(verifyToken(ctx.services.keys.fingerprintToken, reg.token, site.id, ctx.now()).status).toBe(
      'expired',
    );
  });

  it("remembers the device's hardware profile for the server side, which only gets the token", async () => {
    const site = testSite();
    const reg = await registerFingerprint(ctx, site, { fingerprint: FINGERPRINT });
    expect(await hardwareProfileOf(ctx.hotState, site.id, reg.device_id)).toBe(
      hardwareProfileFromStable(stableFingerprint(FINGERPRINT)),
    );
    expect(await hardwareProfileOf(ctx.hotState, 'site_other', reg.device_id)).toBe('');
  });

  it('registers evidence without a stable attribute as no device: device_id "", a token naming none', async () => {
    const site = testSite();
    const reg = await registerFingerprint(ctx, site, { fingerprint: {} });
    expect(reg.device_id).toBe('');
    expect(verifyToken(ctx.services.keys.fingerprintToken, reg.token, site.id, ctx.now())).toMatchObject({
      status: 'valid',
      deviceId: '',
    });
  });
});
