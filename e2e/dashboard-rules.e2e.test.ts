import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chromiumAvailable } from './support/browser.ts';
import { dashboardRig } from './support/dashboard.ts';

/** The dashboard's rule editor in chromium: a CEL error, the fix, saving, backtesting, going live. */
// Own timeouts, so the suite also runs under the root vitest config.
describe.skipIf(!chromiumAvailable())('dashboard in chromium', { timeout: 90_000 }, () => {
  const rig = dashboardRig();
  const { pageErrors, shoot, go } = rig;
  let page: Page;

  beforeAll(async () => {
    await rig.start();
    page = rig.page;
    // Decisions for the backtest to evaluate, and the owner signed in.
    await rig.seedTraffic();
    await rig.signIn(page, rig.server.demo.email, rig.server.demo.password);
  }, 120_000);

  afterAll(async () => {
    await rig.stop();
  });

  it('shows a CEL syntax error next to the expression, saves the fixed rule and backtests it', async () => {
    await go(page, 'rules');
    await page.getByRole('link', { name: 'New rule' }).click();
    await page.getByLabel('Name').fill('e2e_login_rule');
    await page.getByLabel('Expression (CEL, returns bool)').fill('event.type == ');
    await page.getByLabel('Score', { exact: true }).fill('25');
    await page.getByRole('button', { name: 'Create rule' }).click();
    const error = page.locator('[data-testid=expression-error]');
    await error.waitFor();
    const text = (await error.textContent()) ?? '';
    expect(text).toMatch(/Unexpected/);
    expect(text).toMatch(/line 1, column \d+/);
    expect(await page.getByLabel('Expression (CEL, returns bool)').getAttribute('aria-invalid')).toBe('true');
    await shoot(page, '04-rule-error');
    await page.getByLabel('Expression (CEL, returns bool)').fill('event.type == "signup" && score > 50.0');
    await page.getByRole('button', { name: 'Create rule' }).click();
    await page.waitForURL(/\/dashboard\/rules\/rule_\w+$/);
    await page.getByRole('button', { name: 'Save rule' }).waitFor();
    expect(await error.count()).toBe(0);
    await page.getByRole('button', { name: 'Run backtest' }).click();
    await page.locator('[data-testid=backtest-result]').waitFor({ timeout: 30_000 });
    const evaluated = Number(
      ((await page.locator('[data-testid=backtest-evaluated]').textContent()) ?? '').replace(/\D/g, ''),
    );
    expect(evaluated).toBeGreaterThanOrEqual(3);
    expect(await page.getByRole('img', { name: /Actions before and after/ }).count()).toBe(1);
    await shoot(page, '05-rule-backtest');
    // Saving the existing rule (PATCH) works too.
    await page.getByLabel('Score', { exact: true }).fill('30');
    await page.getByRole('button', { name: 'Save rule' }).click();
    await page.getByRole('status').filter({ hasText: 'Saved.' }).waitFor();
    // The list shows it in shadow mode, as created; switch it to live there.
    await go(page, 'rules');
    const row = page.locator('tr', { hasText: 'e2e_login_rule' });
    await row.waitFor();
    expect(await row.getByRole('button', { name: 'shadow' }).getAttribute('aria-pressed')).toBe('true');
    await row.getByRole('button', { name: 'live' }).click();
    await expect
      .poll(() => row.getByRole('button', { name: 'live' }).getAttribute('aria-pressed'))
      .toBe('true');
    await shoot(page, '06-rules');
  });

  it('raised no uncaught errors in the page', () => {
    expect(pageErrors).toEqual([]);
  });
});
