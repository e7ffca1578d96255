import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { type Decision, verifyAltchaPayload, Warden } from '@warden/node';
import express from 'express';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestWorkspace } from '../packages/server/src/testing/accounts.ts';
import { createTestApp, type TestApp } from '../packages/server/src/testing/context.ts';
import { chromiumAvailable, launchChromium } from './support/browser.ts';

/**
 * The official ALTCHA widgets (unmodified) on a shop page: 2.x (npm `altcha`) with `challengeurl`
 * on Warden's v1 route, and 3.x (npm `altcha` 3.x, installed as the alias `altcha3`) with
 * `challenge` on the PoW v2 route. The widget solves on load, the form posts its payload, and the
 * shop's backend checks it with @warden/node's verifyAltchaPayload or passes it to /verify as
 * proof-of-work evidence (docs/altcha.md).
 */
const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

interface WidgetGeneration {
  name: string;
  widget: string;
  route: string;
  attribute: 'challengeurl' | 'challenge';
  /** What the widget's payload holds (decoded from base64 JSON). */
  checkPayload(decoded: Record<string, unknown>): void;
}

const GENERATIONS: WidgetGeneration[] = [
  {
    name: 'the ALTCHA widget against Warden in chromium',
    widget: path.join(ROOT, 'node_modules/altcha/dist/altcha.js'),
    route: '/api/antibot/altcha/challenge',
    attribute: 'challengeurl',
    checkPayload(decoded) {
      expect(Object.keys(decoded)).toEqual(
        expect.arrayContaining(['algorithm', 'challenge', 'number', 'salt', 'signature']),
      );
    },
  },
  {
    name: 'the ALTCHA widget 3.x (PoW v2) against Warden in chromium',
    widget: path.join(ROOT, 'node_modules/altcha3/dist/main/altcha.js'),
    route: '/api/antibot/altcha/v2/challenge',
    attribute: 'challenge',
    checkPayload(decoded) {
      // The v2 form: the signed challenge as received and the counter found.
      expect(Object.keys(decoded).sort()).toEqual(['challenge', 'solution']);
      expect((decoded.challenge as { parameters: unknown }).parameters).toMatchObject({
        algorithm: 'PBKDF2/SHA-256',
        data: { challenge_id: expect.stringMatching(/^ch_/) },
      });
      expect(decoded.solution).toMatchObject({
        counter: expect.any(Number),
        derivedKey: expect.stringMatching(/^[0-9a-f]{64}$/),
      });
    },
  },
];

describe.skipIf(!chromiumAvailable()).each(GENERATIONS)(
  '$name',
  { timeout: 60_000 },
  ({ widget: WIDGET, route, attribute, checkPayload }) => {
    let warden: TestApp;
    let wardenUrl: string;
    let shop: http.Server;
    let shopUrl: string;
    let browser: Browser;
    let client: Warden;
    let siteKey: string;

    function page(mode: 'sdk' | 'verify'): string {
      const challengeUrl = `${wardenUrl}${route}?sitekey=${encodeURIComponent(siteKey)}`;
      return `<!doctype html><html><head><meta charset="utf-8"><title>Shop</title>
<script type="module" src="/altcha.js"></script></head><body>
<form method="post" action="/signup/${mode}">
  <input name="email" value="ada@example.com">
  <altcha-widget ${attribute}="${challengeUrl}" auto="onload"></altcha-widget>
  <button type="submit">Sign up</button>
</form></body></html>`;
    }

    beforeAll(async () => {
      const app = express();
      app.use(express.urlencoded({ extended: false }));
      app.get('/altcha.js', (_req, res) => res.type('text/javascript').sendFile(WIDGET));
      app.get('/:mode', (req, res) =>
        res.type('html').send(page(req.params.mode === 'verify' ? 'verify' : 'sdk')),
      );
      // The shop's backend: the SDK's check (local shape/expiry/solution, then Warden: signature, single use).
      app.post('/signup/sdk', async (req, res) => {
        res.json({
          payload: req.body.altcha,
          result: await verifyAltchaPayload(req.body.altcha, { warden: client }),
        });
      });
      // Or the payload as proof-of-work evidence of a scored event.
      app.post('/signup/verify', async (req, res) => {
        const decision: Decision = await client.verify({
          context: {
            event_type: 'signup',
            account_id: req.body.email,
            ...(req.ip ? { ip_address: req.ip } : {}),
          },
          environment: { pow: { altcha: req.body.altcha } },
        });
        res.json({ payload: req.body.altcha, rules: decision.signals.map((s) => s.rule) });
      });
      shop = http.createServer(app);
      await new Promise<void>((resolve) => shop.listen(0, '127.0.0.1', resolve));
      shopUrl = `http://127.0.0.1:${(shop.address() as AddressInfo).port}`;

      warden = await createTestApp();
      const { site } = await createTestWorkspace(warden.ctx, { origins: [shopUrl] });
      siteKey = site.siteKey;
      await warden.app.listen({ port: 0, host: '127.0.0.1' });
      wardenUrl = `http://127.0.0.1:${(warden.app.server.address() as AddressInfo).port}`;
      client = new Warden({ baseUrl: wardenUrl, siteKey: site.siteKey, secretKey: site.secretKey });
      browser = await launchChromium();
    }, 120_000);

    afterAll(async () => {
      await browser?.close();
      await warden?.close();
      await new Promise<void>((resolve) => (shop ? shop.close(() => resolve()) : resolve()));
    });

    /** Opens the shop page, lets the widget solve on load, submits, returns the backend's JSON. */
    async function solveAndSubmit(mode: 'sdk' | 'verify'): Promise<Record<string, unknown>> {
      const context = await browser.newContext();
      try {
        const tab: Page = await context.newPage();
        await tab.goto(`${shopUrl}/${mode}`);
        await tab.waitForFunction(
          () => (document.querySelector('input[name="altcha"]') as HTMLInputElement | null)?.value,
          null,
          { timeout: 45_000 },
        );
        const [response] = await Promise.all([tab.waitForNavigation(), tab.click('button[type="submit"]')]);
        return JSON.parse((await response?.text()) ?? '{}');
      } finally {
        await context.close();
      }
    }

    it('solves on load; the backend verifies the payload with verifyAltchaPayload, once', async () => {
      const answer = await solveAndSubmit('sdk');
      expect(answer.result).toMatchObject({ valid: true });
      const decoded = JSON.parse(Buffer.from(answer.payload as string, 'base64').toString('utf8'));
      checkPayload(decoded);
      expect(await verifyAltchaPayload(answer.payload, { warden: client })).toEqual({
        valid: false,
        reason: 'already_used',
      });
    });

    it('solves on load; the payload counts as proof of work in /verify, then as a replay', async () => {
      const answer = await solveAndSubmit('verify');
      expect(answer.rules).toContain('pow_verified');
      const replay = await client.verify({
        context: { event_type: 'signup', account_id: 'ada@example.com' },
        environment: { pow: { altcha: answer.payload as string } },
      });
      expect(replay.signals.map((s) => s.rule)).toContain('pow_replayed');
    });
  },
);
