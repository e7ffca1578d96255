import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chromiumAvailable } from './support/browser.ts';
import { dashboardRig, ANALYST_SIZES as SIZES, screenshots } from './support/dashboard.ts';

/**
 * The analyst's investigation in chromium (issue 16): pivot from a decision to the decisions of
 * its IP (with the IP's summary), search filters kept in the URL, the phone layout of the list,
 * and the audit log entry a rule change leaves.
 */
describe.skipIf(!chromiumAvailable())('dashboard investigation in chromium', { timeout: 120_000 }, () => {
  const rig = dashboardRig();
  let page: Page;

  const shoot = (p: Page, name: string) => screenshots(p, name, SIZES, { fullPage: true });

  beforeAll(async () => {
    await rig.start();
    page = rig.page;
    await page.setViewportSize(SIZES[0]);
    await rig.seedTraffic();
    await rig.signIn(page, rig.server.demo.email, rig.server.demo.password);
  }, 120_000);

  afterAll(async () => {
    await rig.stop();
  });

  it('pivots from a decision to the decisions of its IP, with the IP summary', async () => {
    // mallory1..3 signed up from one IP; open mallory2's decision.
    await rig.go(page, 'decisions?accountId=mallory2');
    const row = page.locator('tr[data-decision-id]').first();
    await row.waitFor({ timeout: 20_000 });
    await row.locator('td[data-col=time] a').click();
    await page.getByTestId('headline-score').waitFor();
    await shoot(page, 'investigate-01-decision');
    // Every entity on the page links to the decisions filtered by it.
    for (const kind of ['accountId', 'email', 'emailDomain', 'ip', 'ipPrefix'])
      expect(await page.locator(`dl.facts a[data-entity=${kind}]`).count(), kind).toBe(1);
    // The IP's summary unfolds in place.
    await page.getByRole('button', { name: 'Show the ip address summary' }).click();
    const card = page.getByTestId('entity-summary');
    await card.getByTestId('entity-total').waitFor();
    expect(await card.getByTestId('entity-total').textContent()).toBe('3');
    await page.locator('dl.facts a[data-entity=ip]').click();
    await page.waitForURL(/\/dashboard\/decisions\?ip=198\.51\.100\.7$/);
    await page.getByTestId('entity-summary').getByTestId('entity-total').waitFor();
    const accounts = await page
      .locator('tr[data-decision-id] td[data-col=account] a[data-entity=accountId]')
      .allTextContents();
    expect(accounts.sort()).toEqual(['mallory1', 'mallory2', 'mallory3']);
    expect(await page.getByLabel('IP address', { exact: true }).inputValue()).toBe('198.51.100.7');
    await shoot(page, 'investigate-02-ip-decisions');
    // From there to the e-mail domain, and back in history.
    await page.locator('td[data-col=account] a[data-entity=email]').first().click();
    await page.waitForURL(/\?email=mallory\d%40mailinator\.com$/);
    await page.locator('tr[data-decision-id]').first().waitFor();
    expect(await page.locator('tr[data-decision-id]').count()).toBe(1);
    await page.goBack();
    await page.waitForURL(/\?ip=198\.51\.100\.7$/);
    await page.locator('tr[data-decision-id]').nth(2).waitFor();
    expect(await page.locator('tr[data-decision-id]').count()).toBe(3);
  });

  it('searches with filters kept in the URL, and shows score and action first on a phone', async () => {
    await rig.go(page, 'decisions');
    await page.locator('tr[data-decision-id]').first().waitFor({ timeout: 20_000 });
    await page.getByText('Filters', { exact: true }).click();
    await page.getByLabel('E-mail domain').fill('example.com');
    await page.getByLabel('Max score').fill('100');
    await page.getByRole('button', { name: 'Apply' }).click();
    await page.waitForURL(/emailDomain=example\.com/);
    await page.locator('tr[data-decision-id]').first().waitFor();
    const emails = await page.locator('td[data-col=account] a[data-entity=email]').allTextContents();
    expect(emails.length).toBeGreaterThanOrEqual(6);
    for (const e of emails) expect(e).toMatch(/@example\.com$/);
    // The URL is the saved view: opening it again gives the same list.
    await page.goto(page.url());
    await page.locator('tr[data-decision-id]').first().waitFor();
    expect(await page.locator('tr[data-decision-id]').count()).toBe(emails.length);
    await shoot(page, 'investigate-03-search');
    await page.setViewportSize(SIZES[1]);
    const headings = await page.locator('table.decisions-table thead th').allTextContents();
    expect(headings.slice(0, 2)).toEqual(['Score', 'Action']);
    await page.setViewportSize(SIZES[0]);
  });

  it('records a rule change in the audit log', async () => {
    await rig.go(page, 'rules');
    await page.getByRole('link', { name: 'New rule' }).click();
    await page.getByLabel('Name').fill('e2e_audit_rule');
    await page.getByLabel('Expression (CEL, returns bool)').fill('event.type == "signup"');
    await page.getByLabel('Score', { exact: true }).fill('20');
    await page.getByRole('button', { name: 'Create rule' }).click();
    await page.waitForURL(/\/dashboard\/rules\/rule_\w+$/);
    await page.getByLabel('Score', { exact: true }).fill('35');
    await page.getByRole('button', { name: 'Save rule' }).click();
    await page.getByRole('status').filter({ hasText: 'Saved.' }).waitFor();
    await page.locator('nav[aria-label="Main"]').getByRole('link', { name: 'Audit log' }).click();
    await page.waitForURL(/\/dashboard\/audit$/);
    const update = page.locator('tr[data-audit-action="rule.update"]').first();
    await update.waitFor({ timeout: 20_000 });
    expect(await update.textContent()).toContain('score: 20 → 35');
    expect(await update.textContent()).toContain(rig.server.demo.email);
    expect(await page.locator('tr[data-audit-action="rule.create"]').count()).toBe(1);
    await shoot(page, 'investigate-04-audit');
    expect(rig.pageErrors).toEqual([]);
  });
});
