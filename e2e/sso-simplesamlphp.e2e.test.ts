import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Browser, BrowserContext } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chromiumAvailable, launchChromium } from './support/browser.ts';
import { type RunningServer, startServer } from './support/server.ts';
import { type SimpleSamlPhp, simpleSamlPhpAvailable, startSimpleSamlPhp } from './support/simplesamlphp.ts';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const SHOTS = path.join(ROOT, 'e2e/screenshots');

/**
 * SAML single sign-on against a real, independent identity provider: SimpleSAMLphp 1.19 (Debian),
 * served by PHP's built-in server on loopback. Chromium starts on the dashboard's sign-in page,
 * goes through Warden's SP-initiated login to SimpleSAMLphp's login form, signs in as alice, and
 * lands in the dashboard signed in. The IdP then rolls its signing key over the way SimpleSAMLphp
 * documents it (new certificate announced first while still signing with the old one, then
 * signing with the new one), with Warden configured once from the metadata of the first step; a
 * key Warden was never told about ends on the dashboard's error page with the reason.
 */
const run = chromiumAvailable() && simpleSamlPhpAvailable();

describe.skipIf(!run)('SAML single sign-on with SimpleSAMLphp in chromium', { timeout: 90_000 }, () => {
  let server: RunningServer;
  let idp: SimpleSamlPhp;
  let browser: Browser;
  let ownerToken: string;

  async function api(p: string, init: RequestInit = {}, token?: string) {
    const res = await fetch(`${server.baseUrl}${p}`, {
      ...init,
      headers: {
        ...(init.body ? { 'content-type': 'application/json' } : {}),
        ...(token ? { authorization: `Bearer ${token}` } : {}),
      },
    });
    return { status: res.status, body: (await res.json()) as { data: Record<string, unknown> } };
  }

  beforeAll(async () => {
    if (!fs.existsSync(path.join(ROOT, 'packages/dashboard/dist/index.html'))) {
      throw new Error('[warden e2e] the dashboard is not built: run `npm run build` (npm install does it).');
    }
    idp = await startSimpleSamlPhp();
    server = await startServer((port) => ({ WARDEN_PUBLIC_URL: `http://127.0.0.1:${port}` }));
    browser = await launchChromium();
    const login = await api('/api/auth/login', {
      method: 'POST',
      body: JSON.stringify({ email: server.demo.email, password: server.demo.password }),
    });
    ownerToken = login.body.data.accessToken as string;
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    await server?.stop();
    await idp?.stop();
  });

  /** From the dashboard's sign-in page through SimpleSAMLphp's login form; answers the page. */
  async function signInThroughIdp(context: BrowserContext) {
    const page = await context.newPage();
    const visited: string[] = [];
    page.on('framenavigated', (frame) => {
      if (frame === page.mainFrame()) visited.push(frame.url());
    });
    await page.goto(`${server.baseUrl}/dashboard/`);
    await page.waitForURL(/\/dashboard\/sign-in/);
    await page.getByLabel('Workspace id').fill(server.demo.workspaceId);
    await page.getByRole('button', { name: 'Sign in with SSO' }).click();
    // SimpleSAMLphp's own login form (exampleauth:UserPass).
    await page.waitForURL((u) => u.href.startsWith(`${idp.baseUrl}/module.php/core/loginuserpass.php`));
    await page.locator('#username').fill(idp.user.username);
    await page.locator('#password').fill(idp.user.password);
    await page.locator('#submit_button').click();
    return { page, visited };
  }

  async function expectSignedIn(context: BrowserContext, shot?: string) {
    const { page, visited } = await signInThroughIdp(context);
    await page.locator('nav[aria-label="Main"]').waitFor({ timeout: 30_000 });
    expect(await page.locator('.user-email').textContent()).toBe(idp.user.email);
    expect(page.url()).not.toContain('accessToken');
    const trail = visited.join(' → ');
    expect(
      visited.some((u) => u.startsWith(`${idp.baseUrl}/module.php/core/loginuserpass.php`)),
      trail,
    ).toBe(true);
    expect(
      visited.some((u) => u.startsWith(`${server.baseUrl}/dashboard/sso-callback#accessToken=`)),
      trail,
    ).toBe(true);
    if (shot) {
      fs.mkdirSync(SHOTS, { recursive: true });
      await page.screenshot({ path: path.join(SHOTS, shot) });
    }
    const stored = await page.evaluate(
      () => JSON.parse(localStorage.getItem('warden.session') ?? '{}').accessToken as string,
    );
    const me = await api('/api/auth/me', {}, stored);
    expect(me.body.data.email).toBe(idp.user.email);
  }

  it('signs in through SimpleSAMLphp, through a signing-key rollover, and shows a refusal', async () => {
    // Step 1 of SimpleSAMLphp's key rollover: the metadata lists the new certificate (first) and
    // the old one, while the IdP still signs with the old key. Warden is configured from it once.
    idp.setKeys('rollover-announced');
    const metadataXml = await idp.metadataXml();
    const listed = [...metadataXml.matchAll(/<md:KeyDescriptor use="signing">/g)].length;
    expect(listed).toBe(2);
    const configured = await api(
      `/api/workspaces/${server.demo.workspaceId}/sso`,
      {
        method: 'PUT',
        body: JSON.stringify({ enabled: true, metadataXml, defaultRole: 'viewer', ssoRequired: false }),
      },
      ownerToken,
    );
    expect(configured.status).toBe(200);
    expect(configured.body.data.idpEntityId).toBe(idp.entityId);
    expect((configured.body.data.idpCertificates as string[]).length).toBe(2);
    idp.trust(configured.body.data.sp as { entityId: string; acsUrl: string });

    const contexts: BrowserContext[] = [];
    const fresh = async () => {
      // A new context each time: no IdP session cookie, so SimpleSAMLphp asks for the password.
      const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
      contexts.push(context);
      return context;
    };
    try {
      await expectSignedIn(await fresh(), 'sso-simplesamlphp-signed-in-1280x800.png');

      // Step 2: the IdP signs with the new key; Warden already trusts it.
      idp.setKeys('rolled-over');
      await expectSignedIn(await fresh());

      // A key Warden was never told about: the browser lands on the dashboard with the reason.
      idp.setKeys('foreign-key');
      const { page } = await signInThroughIdp(await fresh());
      const alert = page.getByRole('alert');
      await alert.waitFor({ timeout: 30_000 });
      expect(await alert.textContent()).toContain('SAML response refused: invalid signature');
      expect(new URL(page.url()).pathname).toBe('/dashboard/sso-callback');
      await page.getByRole('link', { name: 'Back to sign-in' }).click();
      await page.waitForURL(/\/dashboard\/sign-in/);
    } finally {
      for (const context of contexts) await context.close();
    }
    expect(server.output()).not.toContain('SAMLResponse');
  });
});
