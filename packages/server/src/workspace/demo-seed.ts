import { randomBytes } from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import type { Logger } from 'pino';
import type { Database } from '../storage/db.ts';
import { originProblem } from './origins.ts';
import { hashPassword } from './passwords.ts';
import type { SiteChanges } from './site-key-cache.ts';
import { createSite, findSite, parseOrigins, updateSite } from './sites.ts';
import { createUser, findUserByEmail } from './users.ts';
import { addMembership, createWorkspace } from './workspaces.ts';

/** instance_settings row that records (and claims) the demo seed, so it happens once per database. */
const DEMO_SETTING = 'demo_seed';
export const DEMO_CREDENTIALS_FILE = 'demo-credentials.json';

export interface DemoCredentials {
  workspaceId: string;
  email: string;
  password: string;
  siteId: string;
  siteKey: string;
  secretKey: string;
}

export interface DemoSeedDeps {
  database: Database;
  dataDir: string;
  logger: Logger;
  now: () => number;
  /** The serving process's site cache, told when the demo site's origins change. */
  sites: SiteChanges;
}

/** The server's own browser origins, so that `/demo` works out of the box (SPEC §10). */
export function demoOrigins(host: string, port: number): string[] {
  const hosts = ['127.0.0.1', 'localhost'];
  // Wildcard listen addresses are not something a browser can be on.
  if (!['0.0.0.0', '::', '', '127.0.0.1', 'localhost'].includes(host)) {
    hosts.push(host.includes(':') && !host.startsWith('[') ? `[${host}]` : host);
  }
  const origins: string[] = [];
  for (const h of hosts) {
    try {
      const origin = new URL(`http://${h}:${port}`).origin;
      if (originProblem(origin) === null && !origins.includes(origin)) origins.push(origin);
    } catch {
      // A host that makes no URL (odd config) simply gets no origin.
    }
  }
  return origins;
}

interface DemoRecord {
  workspaceId: string;
  siteId: string;
}

async function readDemoRecord(database: Database): Promise<DemoRecord | 'seeding' | null> {
  const row = await database.db
    .selectFrom('instance_settings')
    .select('value')
    .where('key', '=', DEMO_SETTING)
    .executeTakeFirst();
  if (!row) return null;
  if (row.value === 'seeding') return 'seeding';
  return JSON.parse(row.value) as DemoRecord;
}

/**
 * Seed the demo workspace (demo flag, plan pro) with an owner and a site, once per database.
 * Answers the credentials when it seeded now, null when a seed already exists — then it only makes
 * sure the demo site allows `origins` (the port may have changed since the first start).
 * The claim row is inserted in the same transaction, so concurrent processes seed at most once.
 */
export async function seedDemo(deps: DemoSeedDeps, origins: string[]): Promise<DemoCredentials | null> {
  const { database, now } = deps;
  const existing = await readDemoRecord(database);
  if (existing !== null) {
    if (existing !== 'seeding') await allowOrigins(deps, existing.siteId, origins);
    return null;
  }
  const password = randomBytes(12).toString('base64url');
  const passwordHash = await hashPassword(password);
  const created = await database.db.transaction().execute(async (trx) => {
    const claimed = await trx
      .insertInto('instance_settings')
      .values({ key: DEMO_SETTING, value: 'seeding' })
      .onConflict((oc) => oc.column('key').doNothing())
      .returning('key')
      .executeTakeFirst();
    if (!claimed) return null;
    const t = now();
    let email = 'demo@warden.local';
    if (await findUserByEmail(trx, email)) email = `demo-${randomBytes(3).toString('hex')}@warden.local`;
    const user = await createUser(trx, { email, name: 'Demo owner', passwordHash }, t);
    const workspace = await createWorkspace(trx, { name: 'Demo workspace', plan: 'pro', demo: true }, t);
    await addMembership(trx, workspace.id, user.id, 'owner', t);
    const { site, keys } = await createSite(
      trx,
      { workspaceId: workspace.id, name: 'Demo site', allowedOrigins: origins },
      t,
    );
    const record: DemoRecord = { workspaceId: workspace.id, siteId: site.id };
    await trx
      .updateTable('instance_settings')
      .set({ value: JSON.stringify(record) })
      .where('key', '=', DEMO_SETTING)
      .execute();
    return { workspaceId: workspace.id, email, password, siteId: site.id, ...keys };
  });
  if (!created) return null;
  const file = await writeCredentials(deps.dataDir, created);
  deps.logger.info(
    { workspaceId: created.workspaceId, siteId: created.siteId, credentialsFile: file },
    'demo workspace seeded',
  );
  return created;
}

async function allowOrigins(deps: DemoSeedDeps, siteId: string, origins: string[]): Promise<void> {
  const db = deps.database.db;
  const site = await findSite(db, siteId);
  if (!site) return; // the operator deleted the demo site: respect that
  const current = parseOrigins(site.allowed_origins);
  const missing = origins.filter((o) => !current.includes(o));
  if (missing.length === 0) return;
  await updateSite(db, site, { allowedOrigins: [...current, ...missing] }, deps.now(), deps.sites);
  deps.logger.info({ siteId, added: missing }, 'demo site origins extended');
}

/** Write the credentials file with mode 0600 (created so, never world-readable even briefly). */
export async function writeCredentials(dataDir: string, credentials: DemoCredentials): Promise<string> {
  await fs.mkdir(dataDir, { recursive: true });
  const file = path.join(dataDir, DEMO_CREDENTIALS_FILE);
  const temp = `${file}.${process.pid}.tmp`;
  await fs.writeFile(temp, `${JSON.stringify(credentials, null, 2)}\n`, { mode: 0o600 });
  await fs.chmod(temp, 0o600); // the umask can only remove bits, but be explicit
  await fs.rename(temp, file);
  return file;
}

/** The one-time human-readable announcement (stderr, not the structured log). */
export function formatDemoBanner(credentials: DemoCredentials, baseUrl: string, file: string): string {
  return [
    '',
    'Warden demo workspace created (shown once; also saved with mode 0600):',
    `  file:       ${file}`,
    `  dashboard:  ${baseUrl}/dashboard/`,
    `  demo shop:  ${baseUrl}/demo`,
    `  e-mail:     ${credentials.email}`,
    `  password:   ${credentials.password}`,
    `  site key:   ${credentials.siteKey}`,
    `  secret key: ${credentials.secretKey}`,
    '',
  ].join('\n');
}
