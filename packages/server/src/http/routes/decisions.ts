import type { Static } from '@sinclair/typebox';
import { Envelope } from '@warden/protocol';
import type { FastifyRequest } from 'fastify';
import type { AppContext } from '../../context.ts';
import { ApiError } from '../../errors.ts';
import type { DecisionsTable } from '../../storage/scoring-schema.ts';
import type { Operation } from '../../workspace/permissions.ts';
import { assertValid, authenticate, principalOf, requireSite } from '../auth.ts';
import { ok } from '../envelope.ts';
import type { App } from '../types.ts';
import {
  DecisionDetail,
  DecisionIdParams,
  DecisionListQuery,
  DecisionPage,
  decisionDetail,
  decisionSummary,
  LabelBody,
  SUMMARY_COLUMNS,
} from './decisions-schemas.ts';
import { typeboxValidatorCompiler } from './scoring-validation.ts';

/**
 * Decision read API (SPEC §9): list with filters and cursor pagination (newest first), one
 * decision with its evidence and features, and labels. Order of checks (SPEC §10): 401 → 404
 * (unknown or foreign site/decision) → 403 role → 400 validation.
 */
export const DEFAULT_PAGE_SIZE = 50;

export function badQuery(path: string, message: string): ApiError {
  return new ApiError('validation_failed', `Invalid ${path}: ${message}.`, [{ path, message }]);
}

const ISO_DATE = /^(\d{4})-(\d{2})-(\d{2})(?:T|$)/;

/**
 * ISO 8601 or epoch milliseconds → epoch milliseconds. A date that does not exist (Feb 30) is
 * refused: Date.parse would move it into the next month.
 */
export function parseTime(value: string | undefined, path: string): number | undefined {
  if (value === undefined) return undefined;
  if (/^\d+$/.test(value)) return Number(value);
  const date = ISO_DATE.exec(value);
  const ms = date ? Date.parse(value) : Number.NaN;
  if (!date || !Number.isFinite(ms) || !dayExists(Number(date[1]), Number(date[2]), Number(date[3])))
    throw badQuery(path, 'is not a valid date-time');
  return ms;
}

function dayExists(year: number, month: number, day: number): boolean {
  return month >= 1 && month <= 12 && day >= 1 && day <= new Date(Date.UTC(year, month, 0)).getUTCDate();
}

function encodeCursor(row: { created_at: number; id: string }): string {
  return Buffer.from(`${Number(row.created_at)}.${row.id}`).toString('base64url');
}

function decodeCursor(cursor: string): { createdAt: number; id: string } {
  const match = /^(\d{1,15})\.([A-Za-z0-9_-]{1,64})$/.exec(Buffer.from(cursor, 'base64url').toString());
  if (!match) throw badQuery('querystring.cursor', 'is not a cursor returned by this API');
  return { createdAt: Number(match[1]), id: match[2]! };
}

/** The decision, if the caller may do `operation` on its site; 404 for unknown and foreign ones. */
async function accessibleDecision(
  ctx: AppContext,
  request: FastifyRequest,
  id: string,
  operation: Operation,
): Promise<DecisionsTable> {
  const row = await ctx.database.db
    .selectFrom('decisions')
    .selectAll()
    .where('id', '=', id)
    .executeTakeFirst();
  if (!row) throw new ApiError('not_found', 'Decision not found.');
  try {
    await requireSite(ctx, principalOf(request), row.site_id, operation);
  } catch (err) {
    if (err instanceof ApiError && err.code === 'not_found')
      throw new ApiError('not_found', 'Decision not found.');
    throw err;
  }
  return row;
}

async function listDecisions(ctx: AppContext, query: Static<typeof DecisionListQuery>) {
  const limit = query.limit ? Number(query.limit) : DEFAULT_PAGE_SIZE;
  const from = parseTime(query.from, 'querystring.from');
  const to = parseTime(query.to, 'querystring.to');
  const cursor = query.cursor === undefined ? undefined : decodeCursor(query.cursor);
  let q = ctx.database.db.selectFrom('decisions').select(SUMMARY_COLUMNS).where('site_id', '=', query.siteId);
  if (query.eventType) q = q.where('event_type', '=', query.eventType);
  if (query.classification) q = q.where('classification', '=', query.classification);
  if (query.action) q = q.where('action', '=', query.action);
  if (query.accountId) q = q.where('account_id', '=', query.accountId);
  if (query.ip) q = q.where('ip_address', '=', query.ip);
  if (query.deviceId !== undefined) q = q.where('device_id', '=', query.deviceId);
  if (from !== undefined) q = q.where('created_at', '>=', from);
  if (to !== undefined) q = q.where('created_at', '<', to);
  if (cursor) {
    q = q.where((eb) =>
      eb.or([
        eb('created_at', '<', cursor.createdAt),
        eb.and([eb('created_at', '=', cursor.createdAt), eb('id', '<', cursor.id)]),
      ]),
    );
  }
  const rows = await q
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .limit(limit + 1)
    .execute();
  const page = rows.slice(0, limit);
  const last = page[page.length - 1];
  return {
    items: page.map(decisionSummary),
    nextCursor: rows.length > limit && last ? encodeCursor(last) : null,
  };
}

export async function decisionRoutes(app: App, ctx: AppContext): Promise<void> {
  app.setValidatorCompiler(typeboxValidatorCompiler);
  const auth = { onRequest: authenticate(ctx), attachValidation: true };
  const security = [{ bearer: [] }];

  app.get(
    '/api/decisions',
    {
      ...auth,
      schema: {
        tags: ['decisions'],
        summary: 'List recorded decisions of a site, newest first (cursor pagination, filters)',
        security,
        querystring: DecisionListQuery,
        response: { 200: Envelope(DecisionPage) },
      },
    },
    async (request) => {
      const siteId = (request.query as { siteId?: unknown }).siteId;
      if (typeof siteId === 'string') await requireSite(ctx, principalOf(request), siteId, 'read');
      assertValid(request);
      return ok(await listDecisions(ctx, request.query));
    },
  );

  app.get(
    '/api/decisions/:id',
    {
      ...auth,
      schema: {
        tags: ['decisions'],
        summary: 'One decision with its signals, evidence and features',
        security,
        params: DecisionIdParams,
        response: { 200: Envelope(DecisionDetail) },
      },
    },
    async (request) => {
      const row = await accessibleDecision(ctx, request, request.params.id, 'read');
      assertValid(request);
      return ok(decisionDetail(row));
    },
  );

  app.post(
    '/api/decisions/:id/label',
    {
      ...auth,
      schema: {
        tags: ['decisions'],
        summary: 'Label a decision as fraud or legit (owner, analyst)',
        security,
        params: DecisionIdParams,
        body: LabelBody,
        response: { 200: Envelope(DecisionDetail) },
      },
    },
    async (request) => {
      const row = await accessibleDecision(ctx, request, request.params.id, 'decisions.label');
      assertValid(request);
      const labeledAt = ctx.now();
      await ctx.database.db
        .updateTable('decisions')
        .set({ label: request.body.label, labeled_at: labeledAt })
        .where('id', '=', row.id)
        .execute();
      return ok(decisionDetail({ ...row, label: request.body.label, labeled_at: labeledAt }));
    },
  );
}
