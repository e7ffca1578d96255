import { Type } from '@sinclair/typebox';
import { Envelope } from '@warden/protocol';
import { actorOf, audited } from '../../audit/log.ts';
import type { DecisionLog } from '../../decisions/decision-log.ts';
import { labelDecisions } from '../../decisions/transaction-queries.ts';
import { ApiError } from '../../errors.ts';
import { accessCheck } from '../access.ts';
import { type AuthDeps, authenticate, principalOf, requireSite } from '../auth.ts';
import { ok } from '../envelope.ts';
import type { App } from '../types.ts';
import { schemaValidator } from '../validation.ts';

/** At most this many decisions are labelled by one request. */
export const BULK_LABEL_MAX = 500;

const Label = Type.Union([Type.Literal('fraud'), Type.Literal('legit')]);

export const BulkLabelBody = Type.Object(
  {
    decisionIds: Type.Array(Type.String({ minLength: 1, maxLength: 64 }), {
      minItems: 1,
      maxItems: BULK_LABEL_MAX,
      uniqueItems: true,
      description: 'Decisions of one site.',
    }),
    label: Label,
  },
  { additionalProperties: false },
);

const BulkLabelResult = Type.Object({
  siteId: Type.String(),
  label: Label,
  labeledAt: Type.String({ format: 'date-time' }),
  /** Every decision asked for, each now carrying the label. */
  decisionIds: Type.Array(Type.String()),
  /** How many of them had no label or another one before. */
  changed: Type.Integer(),
});

/** The body's ids when they have the right shape, so that access can be checked before the rest. */
function idsOf(body: unknown): string[] | null {
  const ids = (body as { decisionIds?: unknown } | null)?.decisionIds;
  if (!Array.isArray(ids) || ids.length === 0 || ids.length > BULK_LABEL_MAX) return null;
  return ids.every((id) => typeof id === 'string' && id.length > 0 && id.length <= 64) ? ids : null;
}

/** What labelling decisions uses: the access checks and the decisions' sites and labels (audited writes). */
export interface DecisionLabelsDeps extends AuthDeps {
  readonly services: { readonly decisions: Pick<DecisionLog, 'labelTargets'> };
}

/**
 * POST /api/decisions/labels: one label on up to 500 decisions of one site (the review queue's and
 * the cluster page's bulk label). Checks (SPEC §10): 401 → 404 (an id unknown or in another
 * workspace; `details` names each) → 403 (role, as the single label route) → 400 (body; decisions
 * of several sites). All or nothing: the labels and the audit entry are one transaction.
 */
export async function decisionLabelRoutes(app: App, ctx: DecisionLabelsDeps): Promise<void> {
  app.setValidatorCompiler(schemaValidator('every'));
  /** The decisions and their sites' access, before the schema: ids of the wrong shape are its 400. */
  const labelling = accessCheck(async (request) => {
    const wanted = idsOf(request.body);
    if (!wanted) return undefined;
    const rows = await ctx.services.decisions.labelTargets(wanted);
    const found = new Set(rows.map((r) => r.id));
    const missing = wanted.flatMap((id, i) =>
      found.has(id) ? [] : [{ path: `body.decisionIds.${i}`, message: 'no such decision' }],
    );
    const sites = [...new Set(rows.map((r) => r.site_id))];
    const principal = principalOf(request);
    const accessible: string[] = [];
    for (const siteId of sites) {
      try {
        await requireSite(ctx, principal, siteId, 'read');
        accessible.push(siteId);
      } catch (err) {
        if (!(err instanceof ApiError && err.code === 'not_found')) throw err;
        for (const r of rows) {
          if (r.site_id !== siteId) continue;
          missing.push({ path: `body.decisionIds.${wanted.indexOf(r.id)}`, message: 'no such decision' });
        }
      }
    }
    if (missing.length) throw new ApiError('not_found', 'Decision not found.', missing.slice(0, 50));
    const accesses = [];
    for (const siteId of accessible)
      accesses.push(await requireSite(ctx, principal, siteId, 'decisions.label'));
    return { wanted, rows, accesses };
  });
  app.post(
    '/api/decisions/labels',
    {
      onRequest: authenticate(ctx),
      preValidation: labelling.preValidation,
      schema: {
        tags: ['decisions'],
        summary: 'Label up to 500 decisions of one site as fraud or legit at once (owner, analyst)',
        description:
          'All or nothing: an unknown id answers 404 with the ids in `details` and nothing is ' +
          'labelled. Recorded in the audit log as `decision.label`.',
        security: [{ bearer: [] }],
        body: BulkLabelBody,
        response: { 200: Envelope(BulkLabelResult) },
      },
    },
    async (request) => {
      const { wanted, rows, accesses } = labelling.of(request);
      const principal = principalOf(request);
      if (accesses.length !== 1 || !accesses[0])
        throw new ApiError('validation_failed', 'The decisions must belong to one site.', [
          { path: 'body.decisionIds', message: 'decisions of several sites' },
        ]);
      const { site } = accesses[0];
      const { label } = request.body;
      const at = ctx.now();
      const before = rows.map((r) => ({ id: r.id, label: r.label }));
      await audited(
        ctx,
        await actorOf(ctx, principal),
        (tx) => labelDecisions(tx.database.db, site.id, wanted, label, at),
        () => ({
          workspaceId: site.workspace_id,
          siteId: site.id,
          action: 'decision.label',
          targetType: 'decision',
          targetId: wanted.length === 1 ? wanted[0]! : `${wanted.length} decisions`,
          before: { labels: before.slice(0, 100) },
          after: { label, count: wanted.length, decisionIds: wanted.slice(0, 100) },
        }),
      );
      return ok({
        siteId: site.id,
        label,
        labeledAt: new Date(at).toISOString(),
        decisionIds: wanted,
        changed: rows.filter((r) => r.label !== label).length,
      });
    },
  );
}
