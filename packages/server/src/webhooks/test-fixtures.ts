/** Test helpers of the webhooks area: rows written directly with Kysely, and a local receiver. */
import { randomBytes, randomUUID } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Plan, Role } from '@warden/protocol/permissions';
import type { AppContext } from '../context.ts';
import type { Database } from '../storage/db.ts';
import type { DecisionsTable } from '../storage/scoring-schema.ts';
import { NO_SITE_CACHE, type SiteChanges } from '../workspace/site-key-cache.ts';
import { createSite as createSite_ } from '../workspace/sites.ts';
import { issueAccessToken, sha256Hex } from '../workspace/tokens.ts';
import { createWorkspace, setPlan as setWorkspacePlan } from '../workspace/workspaces.ts';
import { newWebhookSecret } from './signer.ts';

export interface SiteFixture {
  workspaceId: string;
  siteId: string;
}

/** A workspace of `plan` with one site, through the workspace repositories. */
export async function createSite(database: Database, plan: Plan = 'pro', demo = false): Promise<SiteFixture> {
  const now = Date.now();
  const workspace = await createWorkspace(database.db, { name: 'Shop', plan, demo }, now);
  const { site } = await createSite_(
    database.db,
    { workspaceId: workspace.id, name: 'shop', allowedOrigins: [] },
    now,
  );
  return { workspaceId: workspace.id, siteId: site.id };
}

export async function setPlan(
  database: Database,
  workspaceId: string,
  plan: Plan,
  changes: SiteChanges = NO_SITE_CACHE,
): Promise<void> {
  await setWorkspacePlan(database.db, workspaceId, plan, Date.now(), changes);
}

/** Save a webhook row directly (the route validates URLs; fixtures may point at loopback). */
export async function configureWebhook(
  database: Database,
  siteId: string,
  url: string,
  enabled = true,
  secret = newWebhookSecret(),
): Promise<string> {
  const now = Date.now();
  await database.db
    .insertInto('webhooks')
    .values({ site_id: siteId, url, enabled: enabled ? 1 : 0, secret, created_at: now, updated_at: now })
    .onConflict((oc) =>
      oc.column('site_id').doUpdateSet({ url, enabled: enabled ? 1 : 0, secret, updated_at: now }),
    )
    .execute();
  return secret;
}

/** A member with a live session and an access token. */
export async function createMember(ctx: AppContext, workspaceId: string, role: Role): Promise<string> {
  const now = Date.now();
  const userId = randomUUID();
  const sessionId = randomUUID();
  const { db } = ctx.database;
  await db
    .insertInto('users')
    .values({
      id: userId,
      email: `${userId}@example.com`,
      name: role,
      password_hash: null,
      created_at: now,
      updated_at: now,
    })
    .execute();
  await db
    .insertInto('memberships')
    .values({ workspace_id: workspaceId, user_id: userId, role, created_at: now })
    .execute();
  await db
    .insertInto('refresh_tokens')
    .values({
      id: sessionId,
      user_id: userId,
      token_hash: sha256Hex(randomUUID()),
      workspace_scope: null,
      created_at: now,
      expires_at: now + 86_400_000,
      revoked_at: null,
    })
    .execute();
  return issueAccessToken(ctx.secret, { userId, sessionId, workspaceScope: null });
}

export function decisionRow(site: SiteFixture, overrides: Partial<DecisionsTable> = {}): DecisionsTable {
  const id = overrides.id ?? `req_${randomBytes(10).toString('hex')}`;
  return {
    id,
    site_id: site.siteId,
    workspace_id: site.workspaceId,
    event_type: 'checkout',
    account_id: 'user-42',
    email: null,
    ip_address: '203.0.113.9',
    user_agent: 'Mozilla/5.0',
    device_id: 'dev_abc',
    payment_hash: null,
    promo_code: null,
    order_amount: null,
    risk_score: 72,
    risk_level: 'high',
    classification: 'suspicious',
    action: 'challenge',
    signals: JSON.stringify([
      { rule: 'datacenter_ip', score: 40, description: 'IP in a hosting range' },
      { rule: 'headless', score: 30, description: 'Headless browser' },
      { rule: 'trusted_device', score: 0, description: 'Seen before' },
      { rule: 'datacenter_ip', score: 2, description: 'second hit' },
    ]),
    features: '{}',
    evidence: '{}',
    response: JSON.stringify({ request_id: id }),
    ruleset_version: 'v1',
    decision_ms: 3.5,
    label: null,
    labeled_at: null,
    created_at: Date.now(),
    ...overrides,
  };
}

/** Record a decision and its outbox row in one transaction, as the scoring routes do. */

export interface ReceivedRequest {
  method: string;
  url: string;
  headers: http.IncomingHttpHeaders;
  body: string;
  receivedAt: number;
}

export type ReceiverHandler = (req: ReceivedRequest, res: http.ServerResponse, index: number) => void;

export interface LocalReceiver {
  url: string;
  port: number;
  requests: ReceivedRequest[];
  setHandler(handler: ReceiverHandler): void;
  close(): Promise<void>;
}

/** A real HTTP receiver on 127.0.0.1 that records every request. Default answer: 200. */
export async function startReceiver(handler?: ReceiverHandler): Promise<LocalReceiver> {
  const requests: ReceivedRequest[] = [];
  let current: ReceiverHandler =
    handler ??
    ((_req, res) => {
      res.writeHead(200).end('ok');
    });
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const received: ReceivedRequest = {
        method: req.method ?? '',
        url: req.url ?? '',
        headers: req.headers,
        body: Buffer.concat(chunks).toString('utf8'),
        receivedAt: Date.now(),
      };
      requests.push(received);
      current(received, res, requests.length - 1);
    });
  });
  server.keepAliveTimeout = 1000;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/hooks`,
    port,
    requests,
    setHandler(next) {
      current = next;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

export async function waitFor<T>(
  check: () => Promise<T | undefined> | T | undefined,
  timeoutMs = 10_000,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value !== undefined && value !== false) return value;
    if (Date.now() > deadline) throw new Error('waitFor: timed out');
    await new Promise((r) => setTimeout(r, 20));
  }
}
