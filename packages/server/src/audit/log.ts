import { randomBytes } from 'node:crypto';
import type { AuditEntry as AuditView } from '@warden/protocol/management';
import type { Kysely } from 'kysely';
import type { AuditLogTable } from '../storage/audit-schema.ts';
import type { Database, DB } from '../storage/db.ts';
import type { Principal } from '../workspace/tokens.ts';

/**
 * The audit log (SPEC §11): the one module that writes and reads the `audit_log` table. A change
 * and its entry are written in one transaction (`audited`), so the log never misses a committed
 * change nor records one that was rolled back. Secrets never reach it: `redact` replaces every
 * value under a secret-looking key before anything is stored.
 */
export type AuditAction =
  | 'rule.create'
  | 'rule.update'
  | 'rule.delete'
  | 'list.create'
  | 'list.update'
  | 'list.delete'
  | 'member.add'
  | 'member.update'
  | 'member.remove'
  | 'invitation.create'
  | 'invitation.revoke'
  | 'site.create'
  | 'site.update'
  | 'site.rotate_keys'
  | 'webhook.update'
  | 'sso.update'
  | 'decision.label'
  | 'entity.label'
  | 'entity.unlabel';

export interface AuditEntry {
  workspaceId: string;
  siteId?: string | null;
  action: AuditAction;
  targetType: 'rule' | 'list' | 'member' | 'invitation' | 'site' | 'webhook' | 'sso' | 'decision' | 'entity';
  targetId: string;
  before?: unknown;
  after?: unknown;
}

export interface AuditActor {
  userId: string;
  email: string | null;
}

const SECRET_KEY = /secret|password|token|private.?key|hash$/i;
export const REDACTED = '[redacted]';

/** A copy of `value` with every value under a secret-looking key replaced by `[redacted]`. */
export function redact(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(redact);
  if (value === null || typeof value !== 'object') return value;
  const out: Record<string, unknown> = {};
  for (const [key, v] of Object.entries(value as Record<string, unknown>)) {
    out[key] =
      SECRET_KEY.test(key) && v !== null && v !== undefined && typeof v !== 'boolean' ? REDACTED : redact(v);
  }
  return out;
}

function json(value: unknown): string | null {
  return value === undefined || value === null ? null : JSON.stringify(redact(value));
}

/** What the audit reads outside a change: the database. */
export interface AuditReadDeps {
  readonly database: Pick<Database, 'db'>;
}

/** The workspace a site belongs to (read before a change's transaction starts). */
export async function siteWorkspaceId(deps: AuditReadDeps, siteId: string): Promise<string> {
  const site = await deps.database.db
    .selectFrom('sites')
    .select('workspace_id')
    .where('id', '=', siteId)
    .executeTakeFirstOrThrow();
  return site.workspace_id;
}

/** The signed-in user as an actor (e-mail read now: the log keeps it if the account goes). */
export async function actorOf(deps: AuditReadDeps, principal: Principal): Promise<AuditActor> {
  const user = await deps.database.db
    .selectFrom('users')
    .select('email')
    .where('id', '=', principal.userId)
    .executeTakeFirst();
  return { userId: principal.userId, email: user?.email ?? null };
}

export async function recordAudit(
  db: Kysely<DB>,
  actor: AuditActor,
  entry: AuditEntry,
  now: number,
): Promise<void> {
  const row: AuditLogTable = {
    id: `aud_${randomBytes(10).toString('hex')}`,
    workspace_id: entry.workspaceId,
    site_id: entry.siteId ?? null,
    actor_user_id: actor.userId,
    actor_email: actor.email,
    action: entry.action,
    target_type: entry.targetType,
    target_id: entry.targetId,
    before: json(entry.before),
    after: json(entry.after),
    created_at: now,
  };
  await db.insertInto('audit_log').values(row).execute();
}

/** What a change and its audit entry are written with: the database (its transaction) and the clock. */
export interface AuditDeps {
  readonly database: Pick<Database, 'db'>;
  now(): number;
}

/**
 * Run `change` in a transaction with a copy of `deps` whose database is that transaction, then
 * record what `describe` says about its result in the same transaction. Everything `change` reads
 * or writes must go through `tx` (on SQLite the transaction holds the one connection).
 */
export async function audited<D extends AuditDeps, T>(
  deps: D,
  actor: AuditActor,
  change: (tx: D) => Promise<T>,
  describe: (result: T) => AuditEntry,
): Promise<T> {
  return deps.database.db.transaction().execute(async (trx) => {
    const tx: D = { ...deps, database: { ...deps.database, db: trx } };
    const result = await change(tx);
    await recordAudit(trx, actor, describe(result), deps.now());
    return result;
  });
}

function view(row: AuditLogTable): AuditView {
  return {
    id: row.id,
    workspaceId: row.workspace_id,
    siteId: row.site_id,
    actor: { userId: row.actor_user_id, email: row.actor_email },
    action: row.action,
    targetType: row.target_type,
    targetId: row.target_id,
    before: row.before === null ? null : JSON.parse(row.before),
    after: row.after === null ? null : JSON.parse(row.after),
    createdAt: new Date(Number(row.created_at)).toISOString(),
  };
}

function encodeCursor(row: { created_at: number; id: string }): string {
  return Buffer.from(`${Number(row.created_at)}.${row.id}`).toString('base64url');
}

export function decodeAuditCursor(cursor: string): { createdAt: number; id: string } | null {
  const match = /^(\d{1,15})\.([A-Za-z0-9_-]{1,64})$/.exec(Buffer.from(cursor, 'base64url').toString());
  return match ? { createdAt: Number(match[1]), id: match[2]! } : null;
}

/** One page of a workspace's entries, newest first. */
export async function auditPage(
  db: Kysely<DB>,
  query: {
    workspaceId: string;
    limit: number;
    after?: { createdAt: number; id: string } | undefined;
    action?: string | undefined;
    targetType?: string | undefined;
    targetId?: string | undefined;
  },
): Promise<{ items: AuditView[]; nextCursor: string | null }> {
  let q = db.selectFrom('audit_log').selectAll().where('workspace_id', '=', query.workspaceId);
  if (query.action) q = q.where('action', '=', query.action);
  if (query.targetType) q = q.where('target_type', '=', query.targetType);
  if (query.targetId) q = q.where('target_id', '=', query.targetId);
  const after = query.after;
  if (after) {
    q = q.where((eb) =>
      eb.or([
        eb('created_at', '<', after.createdAt),
        eb.and([eb('created_at', '=', after.createdAt), eb('id', '<', after.id)]),
      ]),
    );
  }
  const rows = await q
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .limit(query.limit + 1)
    .execute();
  const page = rows.slice(0, query.limit);
  const last = page[page.length - 1];
  return {
    items: page.map(view),
    nextCursor: rows.length > query.limit && last ? encodeCursor(last) : null,
  };
}
