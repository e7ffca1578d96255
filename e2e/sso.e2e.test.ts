import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadSchemaValidator, startTestIdp, type TestIdp } from '../packages/server/src/testing/saml-idp.ts';
import { chromiumAvailable, launchChromium } from './support/browser.ts';
import { type RunningServer, startServer } from './support/server.ts';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const SHOTS = path.join(ROOT, 'e2e/screenshots');

/**
 * SAML single sign-on in a real browser: on the dashboard's sign-in page chromium asks for single
 * sign-on to a workspace, goes through Warden's SP-initiated login to the in-process test IdP,
 * whose page auto-posts the signed SAMLResponse to Warden's ACS, which redirects to the
 * dashboard's callback with the session tokens in the fragment; the dashboard stores the session,
 * drops the tokens from the URL and opens the app signed in as the IdP's user.
 */
describe.skipIf(!chromiumAvailable())('SAML single sign-on in chromium', { timeout: 60_000 }, () => {
  let server: RunningServer;
  let idp: TestIdp;
  let browser: Browser;

  beforeAll(async () => {
    if (!fs.existsSync(path.join(ROOT, 'packages/dashboard/dist/index.html'))) {
      throw new Error('[warden e2e] the dashboard is not built: run `npm run build` (npm install does it).');
    }
    idp = await startTestIdp();
    server = await startServer((port) => ({ WARDEN_PUBLIC_URL: `http://127.0.0.1:${port}` }));
    browser = await launchChromium();
    await loadSchemaValidator();
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    await server?.stop();
    await idp?.close();
  });

  async function api(path: string, init: RequestInit = {}, token?: string) {
    const res = await fetch(`${server.baseUrl}${path}`, {
      ...init,
      headers: {
        ...(init.body ? { 'content-type': 'application/json' } : {}),
        ...(token ? { authorization: `Bearer ${token}` } : {}),
      },
    });
    return { status: res.status, body: (await res.json()) as { data: Record<string, unknown> } };
  }

  it('signs in with SSO from the dashboard, through the IdP, into the app as the IdP user', async () => {
    const { demo } = server;
    const login = await api('/api/auth/login', {
      method: 'POST',
      body: JSON.stringify({ email: demo.email, password: demo.password }),
    });
    expect(login.status).toBe(200);
    const ownerToken = login.body.data.accessToken as string;
    const configured = await api(
      `/api/workspaces/${demo.workspaceId}/sso`,
      {
        method: 'PUT',
        body: JSON.stringify({
          enabled: true,
          metadataXml: idp.metadataXml,
          defaultRole: 'viewer',
          ssoRequired: false,
        }),
      },
      ownerToken,
    );
    expect(configured.status).toBe(200);
    const sp = configured.body.data.sp as { entityId: string; acsUrl: string; loginUrl: string };
    expect(sp.loginUrl).toBe(`${server.baseUrl}/api/sso/saml/${demo.workspaceId}/login`);
    idp.trust(sp);
    idp.user.email = 'browser-user@example.test';
    // A few decisions, so that the overview the user lands on has something to show.
    const scored = await fetch(`${server.baseUrl}/api/antibot/verify/batch`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        'x-site-key': demo.siteKey,
        'x-secret-key': demo.secretKey,
      },
      body: JSON.stringify({
        events: ['ana', 'ben', 'cleo', 'dev'].map((name, i) => ({
          context: {
            event_type: i % 2 ? 'login' : 'signup',
            account_id: name,
            email: `${name}@example.com`,
            ip_address: `81.2.69.${150 + i}`,
            user_agent:
              i === 3 ? 'python-requests/2.32' : 'Mozilla/5.0 (X11; Linux x86_64) Chrome/131.0 Safari/537.36',
          },
          headers: { 'accept-language': 'en-US,en;q=0.9', accept: 'text/html' },
        })),
      }),
    });
    expect(scored.status).toBe(201);

    const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    try {
      const page = await context.newPage();
      const pageErrors: string[] = [];
      page.on('pageerror', (err) => pageErrors.push(err.message));
      const visited: string[] = [];
      page.on('framenavigated', (frame) => {
        if (frame === page.mainFrame()) visited.push(frame.url());
      });
      // Start where a person starts: the dashboard's own sign-in page.
      await page.goto(`${server.baseUrl}/dashboard/`);
      await page.waitForURL(/\/dashboard\/sign-in/);
      await page.getByLabel('Workspace id').fill(demo.workspaceId);
      const acs = page.waitForResponse((r) => r.url() === sp.acsUrl && r.request().method() === 'POST');
      await page.getByRole('button', { name: 'Sign in with SSO' }).click();
      const acsResponse = await acs;
      expect(acsResponse.status()).toBe(303);

      // The dashboard takes the session from the fragment and opens the app, signed in.
      await page.locator('nav[aria-label="Main"]').waitFor({ timeout: 30_000 });
      expect(await page.locator('.user-email').textContent()).toBe('browser-user@example.test');
      expect(await page.locator('.pill-role').textContent()).toBe('viewer');
      const workspace = page.getByRole('combobox', { name: /^Workspace/ });
      expect(await workspace.inputValue()).toBe(demo.workspaceId);
      const workspaceName = (await api('/api/workspaces', {}, ownerToken)).body.data as unknown as Array<{
        id: string;
        name: string;
      }>;
      const name = workspaceName.find((w) => w.id === demo.workspaceId)?.name ?? '';
      expect(name).not.toBe('');
      expect(await workspace.locator('option:checked').textContent()).toContain(name);
      // The tokens are gone from the address bar, and the overview of the workspace's site loads.
      const url = new URL(page.url());
      expect(`${url.origin}${url.pathname}`).toBe(`${server.baseUrl}/dashboard/`);
      expect(url.hash).toBe('');
      expect(page.url()).not.toContain('accessToken');
      await page.locator('[data-testid=stats-total]').waitFor();
      fs.mkdirSync(SHOTS, { recursive: true });
      await page.screenshot({ path: path.join(SHOTS, 'sso-signed-in-1280x800.png') });

      // On the way: the IdP, then the callback with the session in the fragment.
      const trail = visited.join(' → ');
      const signIn = visited.findIndex((u) => u.startsWith(`${server.baseUrl}/dashboard/sign-in`));
      const atIdp = visited.findIndex((u) => u.startsWith(idp.ssoUrl));
      const at = visited.findIndex((u) => u.startsWith(`${server.baseUrl}/dashboard/sso-callback#`));
      expect(signIn, trail).toBeGreaterThanOrEqual(0);
      expect(atIdp, trail).toBeGreaterThan(signIn);
      expect(at, trail).toBeGreaterThan(atIdp);
      const callback = visited[at];
      const fragment = new URLSearchParams(callback!.split('#')[1]);
      expect(fragment.get('accessToken')).toBeTruthy();
      expect(fragment.get('refreshToken')).toMatch(/^wrt_/);
      expect(fragment.get('expiresIn')).toBe('3600');
      expect(fragment.get('workspaceId')).toBe(demo.workspaceId);

      // The session the dashboard stored is the IdP user's.
      const stored = await page.evaluate(
        () => JSON.parse(localStorage.getItem('warden.session') ?? '{}').accessToken as string,
      );
      expect(stored).toBe(fragment.get('accessToken'));
      const me = await api('/api/auth/me', {}, stored);
      expect(me.status).toBe(200);
      expect(me.body.data.email).toBe('browser-user@example.test');
      expect(me.body.data.memberships).toEqual([
        expect.objectContaining({ workspaceId: demo.workspaceId, role: 'viewer' }),
      ]);
      expect(pageErrors).toEqual([]);
    } finally {
      await context.close();
    }
    // Nothing secret reached the server's output.
    expect(server.output()).not.toContain('SAMLResponse');
  });
});
