import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chromiumAvailable } from './support/browser.ts';
import { dashboardRig, type Receiver, startReceiver } from './support/dashboard.ts';
import type { RunningServer } from './support/server.ts';

/**
 * The dashboard's owner and session controls in chromium: key rotation, webhooks (and redelivery),
 * the single sign-on callback, a revoked session and sign-out, and what a viewer does not get.
 */
// Own timeouts, so the suite also runs under the root vitest config.
describe.skipIf(!chromiumAvailable())('dashboard in chromium', { timeout: 90_000 }, () => {
  const rig = dashboardRig();
  const { pageErrors, api, login, newPage, signIn, shoot, go } = rig;
  let server: RunningServer;
  let receiver: Receiver;
  let page: Page;
  let decisionId = '';

  beforeAll(async () => {
    receiver = await startReceiver();
    await rig.start();
    ({ server, page } = rig);
    // The owner signed in, a decision and the e2e_login_rule rule, for the viewer to look at.
    await signIn(page, server.demo.email, server.demo.password);
    decisionId = await rig.botDecision(page);
    const token = await login(server.demo.email, server.demo.password);
    const expression = 'event.type == "signup" && score > 50.0';
    const rule = { name: 'e2e_login_rule', mode: 'live', expression, score: 30 };
    const created = await api('POST', `/api/rules?siteId=${server.demo.siteId}`, token, rule);
    if (!created.success) throw new Error(`creating the rule failed: ${created.error?.message}`);
  }, 120_000);

  afterAll(async () => {
    await rig.stop();
    await receiver?.close();
  });

  it('rotates a site key after confirmation and shows the new secret once', async () => {
    await go(page, 'sites');
    await page.getByRole('button', { name: 'Rotate keys' }).first().click();
    const dialog = page.getByRole('dialog', { name: 'Rotate keys' });
    await dialog.waitFor();
    // Escape closes it without rotating.
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'hidden' });
    await page.getByRole('button', { name: 'Rotate keys' }).first().click();
    await dialog.waitFor();
    await dialog.getByRole('button', { name: 'Rotate both keys' }).click();
    const secret = page.locator('[data-testid=one-time-secret]');
    await secret.waitFor();
    const shown = (await secret.locator('.secret-value').allTextContents()).map((s) => s.trim());
    const newSecret = shown.find((s) => s.startsWith('sk_'));
    const newSiteKey = shown.find((s) => s.startsWith('pk_'));
    expect(newSecret).toBeDefined();
    expect(newSecret).not.toBe(server.demo.secretKey);
    await shoot(page, '07-sites-rotated');
    // The old keys stop working at once; the new ones work.
    const verify = (siteKey: string, secretKey: string) =>
      fetch(`${server.baseUrl}/api/antibot/verify`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-site-key': siteKey, 'x-secret-key': secretKey },
        body: JSON.stringify({ context: { event_type: 'login', account_id: 'after-rotation' } }),
      });
    expect((await verify(server.demo.siteKey, server.demo.secretKey)).status).toBe(401);
    expect((await verify(newSiteKey!, newSecret!)).status).toBe(201);
    // Shown once: dismissed, it is gone, and a reload does not bring it back.
    await page.getByRole('button', { name: 'I have stored it' }).click();
    expect(await page.locator('[data-testid=one-time-secret]').count()).toBe(0);
    await page.reload();
    await page.locator('.site-card').first().waitFor();
    expect(await page.getByText(newSecret!).count()).toBe(0);
    await shoot(page, '08-sites');
  });

  it('configures a webhook to a local receiver and shows the delivery succeeded', async () => {
    await go(page, 'webhooks');
    await page.getByLabel('URL').fill(receiver.url);
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await page.getByRole('button', { name: 'Reveal secret' }).click();
    const revealed = (await page.locator('.secret-value').first().textContent()) ?? '';
    expect(revealed).toMatch(/^whsec_[A-Za-z0-9_-]{20,}$/);
    await page.getByRole('button', { name: 'Send test' }).click();
    await page
      .locator('[data-testid=deliveries] tr[data-status=succeeded]')
      .first()
      .waitFor({ timeout: 30_000 });
    expect(receiver.received.length).toBeGreaterThan(0);
    const row = page.locator('[data-testid=deliveries] tr[data-status=succeeded]').first();
    expect(await row.textContent()).toContain('200');
    await page.getByRole('button', { name: 'Hide secret' }).click();
    await shoot(page, '09-webhooks');
  });

  it('shows a delivery failed after five attempts, redelivers it and shows it succeeded', async () => {
    await go(page, 'webhooks');
    await page.getByRole('button', { name: 'Send test' }).waitFor();
    // An edit in progress survives the deliveries' 3 s refresh (the form follows saved settings only).
    const saved = await page.getByLabel('URL').inputValue();
    await page.getByLabel('URL').fill(`${saved}?editing`);
    await page.waitForTimeout(3_500);
    expect(await page.getByLabel('URL').inputValue()).toBe(`${saved}?editing`);
    await page.getByLabel('URL').fill(saved);
    const rows = page.locator('[data-testid=deliveries] tr[data-delivery-id]');
    await rows.first().waitFor();
    const before = new Set(
      await rows.evaluateAll((trs) => trs.map((tr) => tr.getAttribute('data-delivery-id'))),
    );
    receiver.state.status = 500;
    try {
      await page.getByRole('button', { name: 'Send test' }).click();
      // The new delivery fails five times (tiny backoff) and stays failed; the list refreshes itself.
      const failed = page.locator('[data-testid=deliveries] tr[data-status=failed]').first();
      await failed.waitFor({ timeout: 20_000 });
      const id = (await failed.getAttribute('data-delivery-id')) ?? '';
      expect(before.has(id)).toBe(false);
      const row = page.locator(`[data-testid=deliveries] tr[data-delivery-id="${id}"]`);
      expect((await row.locator('td[data-label=Attempts]').textContent())?.trim()).toBe('5');
      expect((await row.locator('td[data-label="Last HTTP status"]').textContent())?.trim()).toBe('500');
      expect(receiver.attemptsOf(id).map((r) => r.status)).toEqual([500, 500, 500, 500, 500]);

      // The receiver recovers; Redeliver queues the same delivery again and it succeeds.
      receiver.state.status = 200;
      await row.getByRole('button', { name: 'Redeliver' }).click();
      await page.getByRole('status').filter({ hasText: 'Redelivery queued.' }).waitFor();
      await page
        .locator(`[data-testid=deliveries] tr[data-delivery-id="${id}"][data-status=succeeded]`)
        .waitFor({ timeout: 20_000 });
      expect((await row.locator('td[data-label="Last HTTP status"]').textContent())?.trim()).toBe('200');
      expect(await row.getByRole('button', { name: 'Redeliver' }).count()).toBe(0);
      expect(receiver.attemptsOf(id).map((r) => r.status)).toEqual([500, 500, 500, 500, 500, 200]);
    } finally {
      receiver.state.status = 200;
    }
  });

  it('lands in the app from the single sign-on callback and drops the tokens from the URL', async () => {
    const session = await api<{ accessToken: string; refreshToken: string }>(
      'POST',
      '/api/auth/login',
      null,
      {
        email: server.demo.email,
        password: server.demo.password,
      },
    );
    const { context, page: p } = await newPage();
    try {
      const fragment = new URLSearchParams({
        accessToken: session.data.accessToken,
        refreshToken: session.data.refreshToken,
        expiresIn: '3600',
        workspaceId: server.demo.workspaceId,
      });
      await p.goto(`${server.baseUrl}/dashboard/sso-callback#${fragment.toString()}`);
      await p.locator('nav[aria-label="Main"]').waitFor();
      expect(new URL(p.url()).hash).toBe('');
      expect(p.url()).not.toContain('accessToken');
      expect(await p.locator('.switcher select').first().inputValue()).toBe(server.demo.workspaceId);
      // A broken callback says what is missing.
      await p.goto(`${server.baseUrl}/dashboard/sso-callback#accessToken=x`);
      await expect(p.getByRole('alert').textContent()).resolves.toContain('missing');
    } finally {
      await context.close();
    }
  });

  it('returns to sign-in when the session is revoked, and signs out', async () => {
    const { context, page: p } = await newPage();
    try {
      await signIn(p, server.demo.email, server.demo.password);
      // Nothing in flight (the overview has loaded), then the session is revoked elsewhere.
      await p.locator('[data-testid=stats-total]').waitFor();
      const token = await p.evaluate(
        () => JSON.parse(localStorage.getItem('warden.session') ?? '{}').accessToken,
      );
      await api('POST', '/api/auth/logout', token as string);
      await p.goto(`${server.baseUrl}/dashboard/rules`);
      await p.waitForURL(/\/dashboard\/sign-in\?next=%2Fdashboard%2Frules$/);
      await expect(p.getByRole('status').first().textContent()).resolves.toContain('expired');
      // Signing in again returns to the page that was asked for.
      await p.getByLabel('E-mail').fill(server.demo.email);
      await p.getByLabel('Password').fill(server.demo.password);
      await p.getByRole('button', { name: 'Sign in', exact: true }).click();
      await p.waitForURL(/\/dashboard\/rules$/);
      await p.getByRole('heading', { name: 'Rules', level: 1 }).waitFor();
      await p.getByRole('button', { name: 'Sign out' }).click();
      await p.waitForURL(/\/dashboard\/sign-in/);
      expect(await p.evaluate(() => localStorage.getItem('warden.session'))).toBeNull();
    } finally {
      await context.close();
    }
  });

  it('invites a viewer, who accepts through the link; the viewer gets no owner-only controls', async () => {
    const email = 'e2e-viewer@example.com';
    const password = 'viewer-password-1';
    // The owner invites from the members page and copies the one-time link.
    await go(page, 'members');
    const form = page.getByRole('form', { name: 'Invite member' });
    await form.getByLabel('E-mail').fill(email);
    await form.locator('#member-role').selectOption('viewer');
    await form.getByRole('button', { name: 'Invite' }).click();
    const link = await form.getByLabel('Invitation link').inputValue();
    expect(link).toMatch(/\/dashboard\/invite#inv_/);
    await page.locator('[data-testid=invitations]').getByText(email).waitFor();
    await shoot(page, '14-members-invited');
    const { context, page: p } = await newPage();
    try {
      // The invited person opens the link, chooses a password and is signed in.
      await p.goto(link);
      await p.locator('[data-testid=invitation]').getByText(email).waitFor();
      await p.getByLabel('Password').fill(password);
      await p.getByLabel('Your name (new accounts)').fill('Vera Viewer');
      await p.getByRole('button', { name: 'Accept and sign in' }).click();
      await p.locator('.pill-role').waitFor();
      expect(await p.locator('.pill-role').textContent()).toBe('viewer');
      const nav = p.locator('nav[aria-label="Main"]');
      expect(await nav.getByRole('link', { name: 'Webhooks' }).count()).toBe(0);
      expect(await nav.getByRole('link', { name: 'Single sign-on' }).count()).toBe(0);
      expect(await nav.getByRole('link', { name: 'Decisions' }).count()).toBe(1);

      await go(p, 'sites');
      await p.locator('.site-card').first().waitFor();
      expect(await p.getByRole('button', { name: 'Rotate keys' }).count()).toBe(0);
      expect(await p.getByRole('form', { name: 'New site' }).count()).toBe(0);
      expect(await p.getByRole('button', { name: /^Remove / }).count()).toBe(0);
      await shoot(p, '15-viewer-sites');

      expect(await nav.getByRole('link', { name: 'Members' }).count()).toBe(0);
      await go(p, 'members');
      await p.getByText('Only workspace owners see and manage members.').waitFor();
      expect(await p.locator('[data-testid=members]').count()).toBe(0);
      expect(await p.getByRole('form', { name: 'Invite member' }).count()).toBe(0);

      await go(p, 'webhooks');
      await p.getByText('Only workspace owners manage webhooks.').waitFor();
      expect(await p.getByLabel('URL').count()).toBe(0);
      await go(p, 'sso');
      await p.getByText('Only workspace owners configure single sign-on.').waitFor();

      await go(p, 'rules');
      await p.locator('tr', { hasText: 'e2e_login_rule' }).waitFor();
      expect(await p.getByRole('link', { name: 'New rule' }).count()).toBe(0);
      expect(await p.getByRole('button', { name: 'Delete' }).count()).toBe(0);

      await go(p, `decisions/${decisionId}`);
      await p.locator('[data-testid=risk-score]').waitFor();
      expect(await p.getByRole('button', { name: 'Mark fraud' }).count()).toBe(0);
      await shoot(p, '16-viewer-decision');
    } finally {
      await context.close();
    }
  });

  it('raised no uncaught errors in the page', () => {
    expect(pageErrors).toEqual([]);
  });
});
