import { Readable } from 'node:stream';
import type { Static } from '@sinclair/typebox';
import { Envelope } from '@warden/protocol';
import {
  DecisionDetail,
  DecisionExportQuery,
  DecisionIdParams,
  DecisionListQuery,
  DecisionPage,
  LabelBody,
} from '@warden/protocol/management';
import type { Operation } from '@warden/protocol/permissions';
import type { FastifyRequest } from 'fastify';
import type { Config } from '../../config.ts';
import type { DecisionLog } from '../../decisions/decision-log.ts';
import { badQuery } from '../../decisions/decision-time.ts';
import type { DecisionFilters } from '../../decisions/search.ts';
import { currentClusterAccounts } from '../../entities/cluster-members.ts';
import { type LabelDeps, labelResolver } from '../../entities/label-resolver.ts';
import { ApiError } from '../../errors.ts';
import type { IdentityService } from '../../scoring/identity.ts';
import type { DecisionsTable } from '../../storage/scoring-schema.ts';
import { accessCheck, looseString } from '../access.ts';
import { type AuthDeps, authenticate, principalOf, requireSite } from '../auth.ts';
import { ok } from '../envelope.ts';
import type { App } from '../types.ts';
import { schemaValidator } from '../validation.ts';
import { EXPORT_PAGE_SIZE, exportChunks } from './decision-export.ts';
import { decisionDetail, decisionSummary, SUMMARY_COLUMNS } from './decisions-schemas.ts';

/**
 * Decision read API (SPEC §9): list with filters and cursor pagination (newest first), one
 * decision with its evidence and features, and labels. Order of checks (SPEC §10): 401 → 404
 * (unknown or foreign site/decision) → 403 role → 400 validation.
 */
export const DEFAULT_PAGE_SIZE = 50;

export { badQuery, parseTime } from '../../decisions/decision-time.ts';

/**
 * What the decision routes use: the access checks, the decision log's reads and single label, the
 * identity graph (a cluster's members) and the retention (how long evidence is kept).
 */
export interface DecisionsDeps extends AuthDeps, LabelDeps {
  readonly database: AuthDeps['database'];
  readonly services: LabelDeps['services'] & {
    readonly decisions: Pick<DecisionLog, 'byId' | 'page' | 'clusters' | 'checkFilters' | 'label'>;
  };
  readonly config: Pick<Config, 'retention'>;
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
  ctx: DecisionsDeps,
  request: FastifyRequest,
  id: string,
  operation: Operation,
): Promise<DecisionsTable> {
  const row = await ctx.services.decisions.byId(id);
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

/** One page of the filtered decisions, newest first, after `cursor`. */
export async function decisionPage<C extends keyof DecisionsTable>(
  ctx: DecisionsDeps,
  filters: DecisionFilters,
  columns: readonly C[],
  limit: number,
  cursor: string | undefined,
) {
  const after = cursor === undefined ? undefined : decodeCursor(cursor);
  const rows = await ctx.services.decisions.page(filters, columns as readonly C[], limit + 1, after);
  const page = rows.slice(0, limit);
  const last = page[page.length - 1];
  return { rows: page, nextCursor: rows.length > limit && last ? encodeCursor(last) : null };
}

/** A `clusterId` filter also matches the decisions of the cluster's current members (identity graph). */
async function withClusterMembers<F extends DecisionFilters>(
  ctx: DecisionsDeps,
  identity: IdentityService,
  filters: F,
): Promise<F> {
  if (!filters.clusterId) return filters;
  const accounts = await currentClusterAccounts(
    ctx.services.decisions.clusters,
    identity,
    filters.siteId,
    filters.clusterId,
  );
  return { ...filters, clusterAccounts: accounts };
}

async function listDecisions(
  ctx: DecisionsDeps,
  identity: IdentityService,
  query: Static<typeof DecisionListQuery>,
) {
  const limit = query.limit ? Number(query.limit) : DEFAULT_PAGE_SIZE;
  const { limit: _l, cursor, ...given } = query;
  const filters = await withClusterMembers(ctx, identity, given);
  const { rows, nextCursor } = await decisionPage(ctx, filters, SUMMARY_COLUMNS, limit, cursor);
  const labels = await labelResolver(ctx, filters.siteId);
  return { items: rows.map((row) => decisionSummary(row, labels)), nextCursor };
}

export async function decisionRoutes(app: App, ctx: DecisionsDeps): Promise<void> {
  const identity = ctx.services.identity;
  app.setValidatorCompiler(schemaValidator('every'));
  const auth = { onRequest: authenticate(ctx) };
  // SPEC §10: the site or decision (404) and the role (403) before the schema (400).
  const siteReader = accessCheck(async (request) => {
    const siteId = looseString(request.query, 'siteId');
    if (siteId !== undefined) await requireSite(ctx, principalOf(request), siteId, 'read');
  });
  const decisionAccess = (operation: Operation) =>
    accessCheck((request) =>
      accessibleDecision(ctx, request, looseString(request.params, 'id') ?? '', operation),
    );
  const readDecision = decisionAccess('read');
  const labelDecision = decisionAccess('decisions.label');
  const security = [{ bearer: [] }];

  app.get(
    '/api/decisions',
    {
      ...auth,
      preValidation: siteReader.preValidation,
      schema: {
        tags: ['decisions'],
        summary: 'List recorded decisions of a site, newest first (cursor pagination, filters)',
        security,
        querystring: DecisionListQuery,
        response: { 200: Envelope(DecisionPage) },
      },
    },
    async (request) => {
      return ok(await listDecisions(ctx, identity, request.query));
    },
  );

  app.get(
    '/api/decisions/export',
    {
      ...auth,
      preValidation: siteReader.preValidation,
      schema: {
        tags: ['decisions'],
        summary: 'Export the filtered decisions of a site as CSV or JSON lines (streamed)',
        description:
          'The list filters, without paging; every matching decision, newest first, read from the ' +
          'database one page at a time. Not enveloped: `text/csv` (header line, RFC 4180) or ' +
          '`application/x-ndjson` (one decision summary per line).',
        security,
        querystring: DecisionExportQuery,
        produces: ['text/csv', 'application/x-ndjson'],
      },
    },
    async (request, reply) => {
      const { format, ...given } = request.query;
      ctx.services.decisions.checkFilters(given); // 400 before the stream starts
      const filters = await withClusterMembers(ctx, identity, given);
      const chunks = exportChunks(
        format,
        (cursor) => decisionPage(ctx, filters, SUMMARY_COLUMNS, EXPORT_PAGE_SIZE, cursor),
        await labelResolver(ctx, filters.siteId),
      );
      const stamp = new Date(ctx.now()).toISOString().slice(0, 10);
      return reply
        .type(format === 'csv' ? 'text/csv; charset=utf-8' : 'application/x-ndjson; charset=utf-8')
        .header(
          'content-disposition',
          `attachment; filename="decisions-${stamp}.${format === 'csv' ? 'csv' : 'jsonl'}"`,
        )
        .header('cache-control', 'no-store')
        .send(Readable.from(chunks));
    },
  );

  app.get(
    '/api/decisions/:id',
    {
      ...auth,
      preValidation: readDecision.preValidation,
      schema: {
        tags: ['decisions'],
        summary: 'One decision with its signals, evidence and features',
        security,
        params: DecisionIdParams,
        response: { 200: Envelope(DecisionDetail) },
      },
    },
    async (request) => {
      const row = readDecision.of(request);
      return ok(decisionDetail(row, ctx.config.retention, await labelResolver(ctx, row.site_id)));
    },
  );

  app.post(
    '/api/decisions/:id/label',
    {
      ...auth,
      preValidation: labelDecision.preValidation,
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
      const row = labelDecision.of(request);
      const labeledAt = ctx.now();
      await ctx.services.decisions.label(row.id, request.body.label, labeledAt);
      return ok(
        decisionDetail(
          { ...row, label: request.body.label, labeled_at: labeledAt },
          ctx.config.retention,
          await labelResolver(ctx, row.site_id),
        ),
      );
    },
  );
}
