import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chromiumAvailable } from './support/browser.ts';
import { dashboardRig, ANALYST_SIZES as SIZES, screenshots } from './support/dashboard.ts';

/**
 * The analyst's last gaps in chromium (issue 26): a decisions list that shows at least 15 rows on
 * a 1440×900 screen under folded filters, with a free-text search and a top-signals column; a
 * shadow rule's matches listed from the rules list; a bulk label read as words in the audit log.
 */
describe.skipIf(!chromiumAvailable())('dashboard analyst flows in chromium', { timeout: 120_000 }, () => {
  const rig = dashboardRig();
  let page: Page;
  let token = '';

  const shoot = (p: Page, name: string) => screenshots(p, name, SIZES, { fullPage: false });

  beforeAll(async () => {
    await rig.start();
    page = rig.page;
    await page.setViewportSize(SIZES[0]);
    await rig.seedTraffic();
    // A busier day than the shared seed's 14 decisions: 12 more sign-ins.
    const res = await rig.demoVerify('verify/batch', {
      events: Array.from({ length: 12 }, (_, i) => ({
        context: { event_type: 'login', account_id: `shopper${i}`, ip_address: `81.2.70.${i + 1}` },
      })),
    });
    expect(res.status).toBe(201);
    token = await rig.login(rig.server.demo.email, rig.server.demo.password);
    await rig.signIn(page, rig.server.demo.email, rig.server.demo.password);
  }, 120_000);

  afterAll(async () => {
    await rig.stop();
  });

  it('shows 15 or more rows at 1440×900 under folded filters, with top signals and a search box', async () => {
    await rig.go(page, 'decisions');
    const rows = page.locator('tr[data-decision-id]');
    await rows.nth(15).waitFor({ timeout: 20_000 });
    expect(await page.locator('details.filters-panel').evaluate((d) => (d as HTMLDetailsElement).open)).toBe(
      false,
    );
    const inView = await rows.evaluateAll(
      (els) => els.filter((e) => e.getBoundingClientRect().bottom <= window.innerHeight).length,
    );
    expect(inView).toBeGreaterThanOrEqual(15);
    // Every column in view: the table does not scroll sideways at 1440 px.
    const overflow = await page
      .locator('.table-wrap', { has: page.locator('table.decisions-table') })
      .evaluate((e) => e.scrollWidth - e.clientWidth);
    expect(overflow).toBeLessThanOrEqual(1);
    const headings = await page.locator('table.decisions-table thead th').allTextContents();
    expect(headings).toContain('Top signals');
    // The HTTP library's decision names what gave it away.
    const scraper = page.locator('tr[data-decision-id]', { hasText: 'scraper' }).first();
    expect(await scraper.locator('td[data-col=signals]').textContent()).toMatch(/\w+_\w+/);
    await shoot(page, 'analyst-01-decisions');

    await page.getByLabel('Search', { exact: true }).fill('mallory');
    await page.getByLabel('Search', { exact: true }).press('Enter');
    await page.waitForURL(/\?q=mallory$/);
    await page.locator('tr[data-decision-id]').first().waitFor();
    const accounts = await page.locator('td[data-col=account] a[data-entity=accountId]').allTextContents();
    expect(accounts.sort()).toEqual(['mallory1', 'mallory2', 'mallory3']);
    // The filters unfold on request.
    await page.getByText('Filters', { exact: true }).click();
    await page.getByLabel('E-mail domain').waitFor();
  });

  it("lists a shadow rule's matches from the rules list", async () => {
    const siteId = rig.server.demo.siteId;
    const rule = await rig.api('POST', `/api/rules?siteId=${siteId}`, token, {
      name: 'e2e_shadow_signup',
      expression: 'event.type == "signup"',
      score: 10,
      mode: 'shadow',
    });
    expect(rule.success, JSON.stringify(rule.error)).toBe(true);
    const res = await rig.verifyBot();
    expect(res.status).toBe(201);
    await rig.go(page, 'rules');
    const cell = page.getByTestId('hits-e2e_shadow_signup');
    await cell.getByRole('link', { name: '1 shadow' }).click({ timeout: 20_000 });
    await page.waitForURL(/signal=custom%3Ae2e_shadow_signup&match=shadow/);
    await page.locator('tr[data-decision-id]').first().waitFor({ timeout: 20_000 });
    expect(await page.locator('tr[data-decision-id] td[data-col=account]').allTextContents()).toEqual([
      'e2e-bot',
    ]);
    await shoot(page, 'analyst-02-shadow-matches');
  });

  it('points from one half of a promo ring to the other (related clusters)', async () => {
    const claim = async (account: string, card: string, ip: string) => {
      const res = await rig.demoVerify('verify', {
        context: {
          event_type: 'promo_claim',
          account_id: account,
          payment_hash: card,
          ip_address: ip,
          email: `${account}@burner.example`,
          promo_code: 'E2ERING',
        },
      });
      expect(res.status).toBe(201);
      return ((await res.json()) as { data: { identity: { cluster_id: string } } }).data.identity.cluster_id;
    };
    await claim('half-a1', 'pm_half_a', '192.0.2.61');
    const a = await claim('half-a2', 'pm_half_a', '192.0.2.62');
    await claim('half-b1', 'pm_half_b', '192.0.2.71');
    const b = await claim('half-b2', 'pm_half_b', '192.0.2.72');
    await rig.go(page, `clusters/${a}`);
    const item = page.getByTestId('related-clusters').locator(`li[data-related="${b}"]`);
    await item.waitFor({ timeout: 20_000 });
    expect(await item.textContent()).toContain('promo code E2ERING');
    expect(await item.textContent()).toContain('network 192.0.2.0/24');
    expect(await item.textContent()).toContain('e-mail domain burner.example');
    // On a phone the whole graph is in view: accounts, linking values and their labels.
    await page.setViewportSize(SIZES[1]);
    await page.waitForTimeout(200);
    const rights = await page
      .locator('[data-testid=cluster-graph] a')
      .evaluateAll((els) => els.map((e) => e.getBoundingClientRect().right));
    expect(rights.length).toBeGreaterThanOrEqual(3);
    for (const right of rights) expect(right).toBeLessThanOrEqual(390);
    await page.setViewportSize(SIZES[0]);
    await shoot(page, 'analyst-04-related-clusters');
    await item.getByRole('link').click();
    await page.waitForURL(new RegExp(`/clusters/${b}$`));
    await page
      .getByTestId('related-clusters')
      .locator(`li[data-related="${a}"]`)
      .waitFor({ timeout: 20_000 });
  });

  it('reads a bulk label in the audit log as words', async () => {
    const siteId = rig.server.demo.siteId;
    const list = await rig.api<{ items: Array<{ id: string }> }>(
      'GET',
      `/api/decisions?siteId=${siteId}&q=mallory`,
      token,
    );
    const ids = list.data.items.map((d) => d.id);
    expect(ids).toHaveLength(3);
    const labelled = await rig.api('POST', '/api/decisions/labels', token, {
      decisionIds: ids,
      label: 'fraud',
    });
    expect(labelled.success).toBe(true);
    await rig.go(page, 'audit');
    const entry = page.locator('tr[data-audit-action="decision.label"]').first();
    await entry.waitFor({ timeout: 20_000 });
    const text = (await entry.textContent()) ?? '';
    expect(text).toContain('3 decisions labelled fraud');
    expect(text).toContain('before: 3 unlabelled');
    expect(text).not.toMatch(/undefined|\{"/);
    await shoot(page, 'analyst-03-audit');
    expect(rig.pageErrors).toEqual([]);
  });
});
