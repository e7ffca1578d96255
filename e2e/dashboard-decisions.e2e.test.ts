import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chromiumAvailable } from './support/browser.ts';
import { BROWSER_UA, dashboardRig } from './support/dashboard.ts';
import type { RunningServer } from './support/server.ts';

/**
 * The dashboard's decisions in chromium: sign-in, the live list, a decision's signals, the other
 * read-only views (overview, lists, members, single sign-on, cluster) and a burst larger than a page.
 * Rules: dashboard-rules.e2e.test.ts; keys, webhooks, sessions and roles: dashboard-admin.e2e.test.ts.
 */
// Own timeouts, so the suite also runs under the root vitest config.
describe.skipIf(!chromiumAvailable())('dashboard in chromium', { timeout: 90_000 }, () => {
  const rig = dashboardRig();
  const { pageErrors, seedTraffic, shoot, go } = rig;
  let server: RunningServer;
  let owner: BrowserContext;
  let page: Page;
  let decisionId = '';
  /** The demo site's keys (this suite does not rotate them). */
  let keys = { siteKey: '', secretKey: '' };

  beforeAll(async () => {
    await rig.start();
    ({ server, owner, page } = rig);
    keys = { siteKey: server.demo.siteKey, secretKey: server.demo.secretKey };
  }, 120_000);

  afterAll(async () => {
    await rig.stop();
  });

  it('serves the dashboard: the page without cache, hashed assets immutable, client routes fall back', async () => {
    const html = await fetch(`${server.baseUrl}/dashboard/decisions/anything`);
    expect(html.status).toBe(200);
    expect(html.headers.get('cache-control')).toBe('no-cache');
    const text = await html.text();
    const script = /src="(\/dashboard\/assets\/[^"]+\.js)"/.exec(text)?.[1];
    expect(script).toBeDefined();
    const asset = await fetch(`${server.baseUrl}${script}`);
    expect(asset.status).toBe(200);
    expect(asset.headers.get('cache-control')).toContain('immutable');
  });

  it('signs in with the demo owner', async () => {
    await page.goto(`${server.baseUrl}/dashboard/`);
    await page.waitForURL(/\/dashboard\/sign-in/);
    await shoot(page, '01-sign-in');
    // A wrong password shows the API's message and code.
    await page.getByLabel('E-mail').fill(server.demo.email);
    await page.getByLabel('Password').fill('wrong-password');
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();
    await expect(page.getByRole('alert').textContent()).resolves.toContain('invalid_credentials');
    await page.getByLabel('Password').fill(server.demo.password);
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();
    await page.locator('nav[aria-label="Main"]').waitFor();
    expect(await page.locator('.user-email').textContent()).toBe(server.demo.email);
    expect(await page.getByRole('heading', { level: 1 }).textContent()).toContain('Overview');
  });

  it('shows decisions made on the demo shop, live', async () => {
    await go(page, 'decisions');
    await expect(page.locator('.live-indicator').textContent()).resolves.toContain('Live');
    const shop = await owner.newPage();
    await shop.goto(`${server.baseUrl}/demo`);
    await shop.waitForFunction('window.wardenDemo && window.wardenDemo.decisions.length > 0', null, {
      timeout: 30_000,
    });
    await shop.locator('#login input[name=email]').fill('e2e-live@example.com');
    await shop.locator('#login button[type=submit]').click();
    await shop.waitForFunction('window.wardenDemo.decisions.length > 1', null, { timeout: 30_000 });
    // Also a server-side verify with a bad user agent, so the list holds a bot too.
    const res = await rig.verifyBot();
    expect(res.status).toBe(201);
    await seedTraffic();
    await shop.close();
    // The list polls every few seconds and puts new decisions on top.
    const row = page.locator('tr', { hasText: 'e2e-live@example.com' });
    await row.first().waitFor({ timeout: 20_000 });
    await page.locator('tr', { hasText: 'e2e-bot' }).first().waitFor({ timeout: 20_000 });
    decisionId =
      (await page.locator('tr', { hasText: 'e2e-bot' }).first().getAttribute('data-decision-id')) ?? '';
    expect(decisionId).not.toBe('');
    await shoot(page, '02-decisions');
    // Pausing stops the live updates and says so.
    await page.getByRole('button', { name: 'Pause' }).click();
    expect(await page.locator('.live-indicator').textContent()).toContain('Paused');
    await page.getByRole('button', { name: 'Resume' }).click();
  });

  it('opens a decision whose signal bars add up to its risk score, and labels it', async () => {
    for (const account of ['e2e-bot', 'e2e-live@example.com']) {
      await go(page, 'decisions');
      // The time links to the decision (the other links pivot on its entities).
      await page.locator('tr', { hasText: account }).first().locator('td[data-col=time] a').click();
      await page.locator('[data-testid=risk-score]').waitFor();
      const scores = await page
        .locator('[data-testid=signal-score]')
        .evaluateAll((cells) => cells.map((c) => Number((c as HTMLElement).dataset.score)));
      expect(scores.length).toBeGreaterThan(0);
      const sum = scores.reduce((a, b) => a + b, 0);
      const shownSum = Number(await page.locator('[data-testid=signal-sum]').getAttribute('data-sum'));
      expect(shownSum).toBeCloseTo(sum, 6);
      const risk = Number(await page.locator('[data-testid=risk-score]').textContent());
      expect(risk).toBe(Math.min(100, Math.max(0, Math.round(sum))));
      expect(await page.locator('[data-testid=headline-score]').textContent()).toBe(String(risk));
    }
    await go(page, `decisions/${decisionId}`);
    await page.getByRole('button', { name: 'Mark fraud' }).click();
    await page.locator('.label-buttons .pill-fraud').waitFor();
    expect(await page.getByRole('button', { name: 'Mark fraud' }).getAttribute('aria-pressed')).toBe('true');
    await page.getByRole('heading', { name: 'Identity cluster' }).waitFor();
    // The screenshot: a checkout whose account shares a card with another.
    await go(page, 'decisions');
    await page
      .locator('tr', { hasText: 'e2e-cluster-b' })
      .filter({ hasText: 'checkout' })
      .locator('td[data-col=time] a')
      .click();
    await page.locator('[data-testid=risk-score]').waitFor();
    await shoot(page, '03-decision');
  });

  it('shows the other views: overview, lists, members, single sign-on, cluster', async () => {
    await go(page, '');
    await page.locator('[data-testid=stats-total]').waitFor();
    expect(Number(await page.locator('[data-testid=stats-total]').textContent())).toBeGreaterThan(0);
    await page.getByRole('img', { name: /Decisions by classification over time/ }).waitFor();
    // Decisions by action over time: a second chart whose columns add up to the same total.
    const byAction = page.getByRole('img', { name: /Decisions by action over time/ });
    await byAction.waitFor();
    const total = Number(await page.locator('[data-testid=stats-total]').textContent());
    expect(await byAction.getAttribute('aria-label')).toMatch(new RegExp(`: ${total} in total$`));
    const series = new Set(
      await byAction.locator('rect').evaluateAll((rs) => rs.map((r) => r.getAttribute('class'))),
    );
    expect(series.size).toBeGreaterThan(0);
    for (const c of series)
      expect(['series-allow', 'series-review', 'series-challenge', 'series-block']).toContain(c);
    await shoot(page, '10-overview');

    await go(page, 'lists');
    await page.getByLabel('Name').fill('e2e_blocked_ips');
    await page.getByLabel('Entries, one per line').last().fill('203.0.113.66\n198.51.100.0/24');
    await page.getByRole('button', { name: 'Create list' }).click();
    await page.getByRole('heading', { name: /e2e_blocked_ips/ }).waitFor();
    await shoot(page, '11-lists');

    await go(page, 'members');
    await page.locator('[data-testid=members] tbody tr').first().waitFor();
    await shoot(page, '12-members');

    await go(page, 'sso');
    await page.locator('h1', { hasText: 'Single sign-on' }).waitFor();
    await page.waitForSelector('.card, .status:not(.status-loading)');
    await shoot(page, '13-sso');

    await go(page, `decisions/${decisionId}`);
    await page.getByRole('link', { name: 'Open the cluster' }).click();
    await page.locator('h1', { hasText: 'Identity cluster' }).waitFor();
    await page.waitForSelector('.card, .status:not(.status-loading)');
    await shoot(page, '14-cluster');
  });

  it('shows every decision of a burst larger than a page, live (no gap)', async () => {
    // Last, so that the burst does not crowd the other tests' decisions and screenshots.
    await go(page, 'decisions');
    await page.locator('tr[data-decision-id]').first().waitFor();
    // Paused, so that the burst lands between two polls: 120 decisions, more than a page (50).
    await page.getByRole('button', { name: 'Pause' }).click();
    const burst = Array.from({ length: 120 }, (_, i) => `e2e-burst-${String(i).padStart(3, '0')}`);
    for (let i = 0; i < burst.length; i += 40) {
      const res = await fetch(`${server.baseUrl}/api/antibot/verify/batch`, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          'x-site-key': keys.siteKey,
          'x-secret-key': keys.secretKey,
        },
        body: JSON.stringify({
          events: burst.slice(i, i + 40).map((account_id) => ({
            context: {
              event_type: 'page_view',
              account_id,
              ip_address: '81.2.69.200',
              user_agent: BROWSER_UA,
            },
            headers: { 'accept-language': 'en-US,en;q=0.9', accept: 'text/html' },
          })),
        }),
      });
      expect(res.status).toBe(201);
    }
    await page.getByRole('button', { name: 'Resume' }).click();
    const rows = page.locator('tr[data-decision-id]', { hasText: 'e2e-burst-' });
    await expect.poll(() => rows.count(), { timeout: 20_000 }).toBe(burst.length);
    const shown = (await rows.locator('td:nth-child(3)').allTextContents()).map((t) => t.trim()).sort();
    expect(shown).toEqual(burst);
    expect(await page.locator('.live-overflow').count()).toBe(0);
  });

  it('raised no uncaught errors in the page', () => {
    expect(pageErrors).toEqual([]);
  });
});
