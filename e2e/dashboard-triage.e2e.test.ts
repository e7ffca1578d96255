import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chromiumAvailable } from './support/browser.ts';
import { BROWSER_UA, dashboardRig } from './support/dashboard.ts';

const SHOTS = path.resolve(path.dirname(fileURLToPath(import.meta.url)), 'screenshots');
const SIZES = [
  { width: 1440, height: 900 },
  { width: 390, height: 844 },
];

interface Verified {
  request_id: string;
  action: string;
  identity?: { cluster_id: string; linked_accounts: number };
}

/**
 * Triage in chromium (issue 16, points 3 and 4): a ring found from an old cluster id, drawn as a
 * graph with consistent counts, labelled and put on a block list in bulk; the review queue worked
 * from the keyboard (move, label with one key, select and bulk label).
 */
describe.skipIf(!chromiumAvailable())('dashboard triage in chromium', { timeout: 180_000 }, () => {
  const rig = dashboardRig();
  let page: Page;
  let token = '';
  let siteId = '';

  async function shoot(p: Page, name: string): Promise<void> {
    fs.mkdirSync(SHOTS, { recursive: true });
    for (const size of SIZES) {
      await p.setViewportSize(size);
      await p.waitForTimeout(200);
      await p.screenshot({
        path: path.join(SHOTS, `${name}-${size.width}x${size.height}.png`),
        fullPage: true,
      });
    }
    await p.setViewportSize(SIZES[0]!);
  }

  async function verify(context: Record<string, unknown>): Promise<Verified> {
    const s = rig.server;
    const res = await fetch(`${s.baseUrl}/api/antibot/verify`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        'x-site-key': s.demo.siteKey,
        'x-secret-key': s.demo.secretKey,
      },
      body: JSON.stringify({ context: { user_agent: BROWSER_UA, ...context } }),
    });
    expect(res.status).toBe(201);
    return ((await res.json()) as { data: Verified }).data;
  }

  beforeAll(async () => {
    await rig.start();
    page = rig.page;
    await page.setViewportSize(SIZES[0]!);
    token = await rig.login(rig.server.demo.email, rig.server.demo.password);
    siteId = rig.server.demo.siteId;
    await rig.signIn(page, rig.server.demo.email, rig.server.demo.password);
  }, 120_000);

  afterAll(async () => {
    await rig.stop();
  });

  it('finds a ring from an old cluster id: graph, consistent counts, bulk label and block list', async () => {
    const checkout = (account: string, card: string, ip: string) =>
      verify({
        event_type: 'checkout',
        account_id: account,
        payment_hash: card,
        ip_address: ip,
        order_amount: 9,
      });
    await checkout('ring-a1', 'pm_ring_1', '192.0.2.10');
    await checkout('ring-a2', 'pm_ring_1', '192.0.2.11');
    await checkout('ring-b1', 'pm_ring_2', '192.0.2.12');
    const old = (await checkout('ring-b2', 'pm_ring_2', '192.0.2.12')).identity!;
    expect(old.linked_accounts).toBe(1);
    // ring-b2 pays with the first card: the younger cluster merges into the older one.
    const merged = (await checkout('ring-b2', 'pm_ring_1', '192.0.2.12')).identity!;
    expect(merged.cluster_id).not.toBe(old.cluster_id);
    expect(merged.linked_accounts).toBe(3);
    const list = await rig.api<{ id: string }>('POST', `/api/lists?siteId=${siteId}`, token, {
      name: 'ring-accounts',
      kind: 'account_id',
      type: 'block',
    });
    expect(list.success).toBe(true);

    await rig.go(page, `clusters/${old.cluster_id}`);
    await page.getByTestId('cluster-graph').waitFor({ timeout: 20_000 });
    expect(await page.getByTestId('cluster-merged').textContent()).toContain(old.cluster_id);
    expect(await page.locator('h1 code').textContent()).toBe(merged.cluster_id);
    const accounts = await page
      .locator('[data-testid=cluster-graph] a[data-account]')
      .evaluateAll((els) => els.map((e) => e.getAttribute('data-account')));
    expect(accounts.sort()).toEqual(['ring-a1', 'ring-a2', 'ring-b1', 'ring-b2']);
    const values = await page
      .locator('[data-testid=cluster-graph] a[data-value]')
      .evaluateAll((els) => els.map((e) => e.getAttribute('data-value')));
    expect(values.sort()).toEqual(['ip:192.0.2.12', 'payment:pm_ring_1', 'payment:pm_ring_2']);
    expect(await page.locator('[data-testid=cluster-graph] line').count()).toBe(7);
    const counts = await page.getByTestId('cluster-counts').locator('dd').allTextContents();
    expect(counts.slice(0, 4)).toEqual(['4', '0', '1', '2']);
    await shoot(page, 'triage-01-cluster');

    // Bulk: the two a-accounts labelled fraud as a whole (every decision of them) and blocked.
    await page.getByLabel('Select ring-a1').check();
    await page.getByLabel('Select ring-a2').check();
    await page.getByRole('button', { name: 'Label accounts fraud' }).click();
    await page.getByText('Labelled 2 accounts fraud: every decision of them counts.').waitFor();
    await page.locator('tr[data-account=ring-a1] [data-testid=member-label]', { hasText: 'fraud' }).waitFor();
    await page.locator('tr[data-account=ring-a2] [data-testid=member-label]', { hasText: 'fraud' }).waitFor();
    expect(
      await page.locator('tr[data-account=ring-b1] [data-testid=member-label]').textContent(),
    ).not.toContain('fraud');
    const bulk = page.getByRole('form', { name: 'Add selected to list' });
    await bulk.getByRole('combobox').selectOption({ label: 'block · ring-accounts (account: 2 values)' });
    await bulk.getByRole('button', { name: 'Add' }).click();
    await bulk.getByText('Added 2 accounts to block list ring-accounts.').waitFor();
    const saved = await rig.api<{ entries: string[] }>('GET', `/api/lists/${list.data.id}`, token);
    expect(saved.data.entries.sort()).toEqual(['ring-a1', 'ring-a2']);
    const audit = await rig.api<{ items: Array<{ action: string; targetId: string }> }>(
      'GET',
      `/api/audit?workspaceId=${rig.server.demo.workspaceId}&action=entity.label`,
      token,
    );
    expect(audit.data.items.map((i) => i.targetId).sort()).toEqual(['account:ring-a1', 'account:ring-a2']);
    await shoot(page, 'triage-02-cluster-labelled');

    // The decision page shows the same numbers as the cluster page.
    await page.locator('tr[data-account=ring-b1] td.num a').first().click();
    await page.getByTestId('cluster-now').waitFor();
    const now = await page.getByTestId('cluster-now').locator('dd').allTextContents();
    expect(now).toEqual(['4', '3', '0', '1', '2']);
  });

  it('labels a whole cluster: every decision of its members counts in a backtest, and undoes it', async () => {
    const ring = await verify({
      event_type: 'checkout',
      account_id: 'whole-1',
      payment_hash: 'pm_whole',
      ip_address: '192.0.2.40',
    });
    await verify({ event_type: 'login', account_id: 'whole-2', ip_address: '192.0.2.41' });
    const clusterId = (
      await verify({
        event_type: 'checkout',
        account_id: 'whole-2',
        payment_hash: 'pm_whole',
        ip_address: '192.0.2.41',
      })
    ).identity!.cluster_id;
    expect(ring.identity).toBeDefined();
    const quality = async () => {
      const res = await rig.api<{
        quality: Record<string, { labeled: number; truePositives: number; falseNegatives: number }>;
      }>('POST', `/api/rules/backtest?siteId=${siteId}`, token, {
        from: new Date(Date.now() - 600_000).toISOString(),
        to: new Date(Date.now() + 600_000).toISOString(),
        rules: [{ name: 'whole_checkout', expression: 'event.payment_hash == "pm_whole"', score: 1 }],
      });
      expect(res.success, JSON.stringify(res.error)).toBe(true);
      return res.data.quality.whole_checkout!;
    };
    // The ring-a accounts labelled above count already; this cluster adds its own.
    const before = await quality();
    expect(before.truePositives).toBe(0);
    await rig.go(page, `clusters/${clusterId}`);
    const control = page.getByTestId('entity-label').first();
    await control.getByText('not labelled').waitFor({ timeout: 20_000 });
    await control.getByRole('button', { name: 'Label cluster fraud' }).click();
    await control.locator('.pill-fraud').waitFor();
    // All three decisions of the two members count, whose sign-in came before the card linked them.
    expect(await quality()).toMatchObject({
      labeled: before.labeled + 3,
      truePositives: 2,
      falseNegatives: before.falseNegatives + 1,
    });
    await shoot(page, 'triage-02b-cluster-whole');
    // The decisions list shows the members' decisions with the cluster's label, saying where it comes from.
    await rig.go(page, `decisions?clusterId=${clusterId}`);
    const labelCell = page.locator(`tr[data-decision-id="${ring.request_id}"] td[data-col=label]`);
    await labelCell.locator('.pill-fraud').waitFor({ timeout: 20_000 });
    expect(await labelCell.textContent()).toContain('via cluster');
    await shoot(page, 'triage-02c-decisions-entity-label');
    await rig.go(page, 'audit');
    const entry = page.locator('tr[data-audit-action="entity.label"]', { hasText: clusterId }).first();
    await entry.waitFor({ timeout: 20_000 });
    expect(await entry.textContent()).toContain(`cluster ${clusterId} labelled fraud as a whole`);
    await rig.go(page, `clusters/${clusterId}`);
    await page.getByTestId('entity-label').first().getByRole('button', { name: 'Undo label' }).click();
    await page.getByTestId('entity-label').first().getByText('not labelled').waitFor();
    expect(await quality()).toEqual(before);
  });

  it('works the review queue from the keyboard: move, label with one key, select and bulk label', async () => {
    const rule = await rig.api('POST', `/api/rules?siteId=${siteId}`, token, {
      name: 'queue_review',
      expression: 'event.account_id.startsWith("queue-")',
      score: 5,
      action: 'review',
    });
    expect(rule.success).toBe(true);
    const ids: string[] = [];
    for (const n of [1, 2, 3, 4]) {
      const d = await verify({
        event_type: 'login',
        account_id: `queue-${n}`,
        ip_address: `192.0.2.${40 + n}`,
      });
      expect(d.action).toBe('review');
      ids.push(d.request_id);
    }
    // Newest first: queue-4, queue-3, queue-2, queue-1.
    await rig.go(page, 'queue');
    const rows = page.locator('[data-testid=queue] tbody tr');
    await rows.first().waitFor({ timeout: 20_000 });
    const rowOf = (id: string) => page.locator(`[data-testid=queue] tr[data-id="${id}"]`);
    expect(await rows.first().getAttribute('data-id')).toBe(ids[3]);
    expect(await rows.first().getAttribute('aria-current')).toBe('true');

    await page.keyboard.press('j');
    expect(await rowOf(ids[2]!).getAttribute('aria-current')).toBe('true');
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('k');
    expect(await rowOf(ids[2]!).getAttribute('aria-current')).toBe('true');
    // One key labels the current decision and moves on.
    await page.keyboard.press('f');
    await rowOf(ids[2]!).locator('[data-testid=queue-label]', { hasText: 'fraud' }).waitFor();
    expect(await rowOf(ids[1]!).getAttribute('aria-current')).toBe('true');
    await shoot(page, 'triage-03-queue');

    // x selects; a label key then labels every selected decision at once.
    await page.keyboard.press('x');
    await page.keyboard.press('j');
    await page.keyboard.press('x');
    expect(await page.getByTestId('queue-selected').textContent()).toBe('2 decisions selected');
    await page.keyboard.press('l');
    await page.getByTestId('queue-notice').filter({ hasText: '2 decisions labelled legit.' }).waitFor();
    for (const id of [ids[1]!, ids[0]!])
      await rowOf(id).locator('[data-testid=queue-label]', { hasText: 'legit' }).waitFor();
    expect(await rowOf(ids[3]!).locator('[data-testid=queue-label]').textContent()).not.toMatch(
      /fraud|legit/,
    );

    // The labels are the server's: fraud for one, legit for two.
    const labelled = await rig.api<{ items: Array<{ id: string; label: string }> }>(
      'GET',
      `/api/decisions?siteId=${siteId}&action=review,challenge&accountId=queue-2`,
      token,
    );
    expect(labelled.data.items[0]?.label).toBe('legit');
    const fraud = await rig.api<{ items: Array<{ id: string }> }>(
      'GET',
      `/api/decisions?siteId=${siteId}&label=fraud&accountId=queue-3`,
      token,
    );
    expect(fraud.data.items.map((d) => d.id)).toEqual([ids[2]]);
    // A reload shows only what is left to review.
    await page.reload();
    await rows.first().waitFor();
    const left = await rows.evaluateAll((els) => els.map((e) => e.getAttribute('data-id')));
    expect(left).toContain(ids[3]);
    expect(left).not.toContain(ids[2]);
    await shoot(page, 'triage-04-queue-after');
    expect(rig.pageErrors).toEqual([]);
  });
});
