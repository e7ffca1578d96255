import { type Static, Type } from '@sinclair/typebox';
import { Envelope } from '@warden/protocol';
import { actorOf, audited } from '../../audit/log.ts';
import type { ClusterDecisions } from '../../decisions/cluster-queries.ts';
import {
  ENTITY_LABEL_KINDS,
  type EntityLabel,
  entityLabelOf,
  entityLabelsOf,
  removeEntityLabel,
  setEntityLabel,
} from '../../entities/entity-labels.ts';
import { ApiError } from '../../errors.ts';
import { accessCheck, looseString } from '../access.ts';
import { type AuthDeps, authenticate, principalOf, requirePlan, requireSite } from '../auth.ts';
import { ok } from '../envelope.ts';
import type { App } from '../types.ts';
import { schemaValidator } from '../validation.ts';

const Kind = Type.Union(
  ENTITY_LABEL_KINDS.map((k) => Type.Literal(k)),
  { description: 'account id, device id, e-mail (any case), payment hash, or identity cluster id' },
);
const Value = Type.String({ minLength: 1, maxLength: 320 });
const Label = Type.Union([Type.Literal('fraud'), Type.Literal('legit')]);
const SiteId = Type.String({ minLength: 1, maxLength: 64 });

const ListQuery = Type.Object(
  { siteId: SiteId, kind: Type.Optional(Kind), value: Type.Optional(Value) },
  { additionalProperties: false },
);
const EntityQuery = Type.Object(
  { siteId: SiteId, kind: Kind, value: Value },
  { additionalProperties: false },
);
const SetBody = Type.Object({ kind: Kind, value: Value, label: Label }, { additionalProperties: false });
const SiteOnly = Type.Object({ siteId: SiteId }, { additionalProperties: false });

const EntityLabelView = Type.Object({
  kind: Kind,
  value: Type.String({ description: 'as stored: an e-mail in lower case' }),
  label: Label,
  labeledAt: Type.String({ format: 'date-time' }),
  labeledBy: Type.Union([Type.String(), Type.Null()], { description: 'user id' }),
});
const EntityLabelList = Type.Object({ siteId: Type.String(), labels: Type.Array(EntityLabelView) });
const SetResult = Type.Object({
  siteId: Type.String(),
  entity: EntityLabelView,
  previous: Type.Union([Label, Type.Null()], { description: 'the label the entity had before' }),
});
const RemoveResult = Type.Object({
  siteId: Type.String(),
  kind: Kind,
  value: Type.String(),
  removed: Label,
});

function labelView(l: EntityLabel): Static<typeof EntityLabelView> {
  return {
    kind: l.kind,
    value: l.value,
    label: l.label,
    labeledAt: new Date(l.labeledAt).toISOString(),
    labeledBy: l.labeledBy,
  };
}

const tags = ['decisions'];
const security = [{ bearer: [] }];
const COUNTS =
  "Every decision of the entity, recorded before or after, counts as labelled in backtests and in a rule's " +
  "precision and recall (a decision's own label comes first; between entities the newest label). A cluster's " +
  'decisions are those recorded under its id and those of its current members.';

/** What entity labels use: the access checks, the site of a cluster, and audited label writes. */
export interface EntityLabelsDeps extends AuthDeps {
  readonly services: { readonly decisions: { readonly clusters: Pick<ClusterDecisions, 'siteOf'> } };
}

/**
 * Entity labels (SPEC §11): GET, PUT and DELETE /api/entity-labels. Checks (SPEC §10): 401 → 404 →
 * 403 role → 402 plan (a cluster needs the identity plan) → 400. A change and its audit entry
 * (`entity.label`, `entity.unlabel`) are one transaction.
 */
export async function entityLabelRoutes(app: App, ctx: EntityLabelsDeps): Promise<void> {
  app.setValidatorCompiler(schemaValidator('every'));
  app.addHook('onRequest', authenticate(ctx));
  /** The site access for `operation`, before the schema (404 and 403 come first); no siteId: the schema's 400. */
  const siteAccess = (operation: 'read' | 'decisions.label') =>
    accessCheck((request) => {
      const siteId = looseString(request.query, 'siteId');
      return siteId === undefined ? undefined : requireSite(ctx, principalOf(request), siteId, operation);
    });
  const reader = siteAccess('read');
  const remover = siteAccess('decisions.label');
  // A cluster label needs the identity plan (402 before 400).
  const labeller = accessCheck(async (request) => {
    const siteId = looseString(request.query, 'siteId');
    if (siteId === undefined) return undefined;
    const access = await requireSite(ctx, principalOf(request), siteId, 'decisions.label');
    if (looseString(request.body, 'kind') === 'cluster') requirePlan(access, 'identity');
    return access;
  });

  app.get(
    '/api/entity-labels',
    {
      preValidation: reader.preValidation,
      schema: {
        tags,
        security,
        summary: 'The entity labels of a site, newest first (every role)',
        querystring: ListQuery,
        response: { 200: Envelope(EntityLabelList) },
      },
    },
    async (request) => {
      const { site } = reader.of(request);
      const { kind, value } = request.query;
      if (value !== undefined && kind === undefined)
        throw new ApiError('validation_failed', '`value` needs `kind`.', [
          { path: 'querystring.kind', message: 'is required with value' },
        ]);
      const labels = await entityLabelsOf(ctx.database.db, site.id, { kind, value });
      return ok({ siteId: site.id, labels: labels.map(labelView) });
    },
  );

  app.put(
    '/api/entity-labels',
    {
      preValidation: labeller.preValidation,
      schema: {
        tags,
        security,
        summary:
          'Label an account, device, e-mail, payment hash or cluster as fraud or legit (owner, analyst)',
        description: `${COUNTS} Replaces the entity's label if it had one. Audited as \`entity.label\`.`,
        querystring: SiteOnly,
        body: SetBody,
        response: { 200: Envelope(SetResult) },
      },
    },
    async (request) => {
      const { site } = labeller.of(request);
      const { kind, value, label } = request.body;
      // A cluster label needs a cluster id of the site.
      if (kind === 'cluster' && (await ctx.services.decisions.clusters.siteOf(value)) !== site.id)
        throw new ApiError('not_found', 'Cluster not found.');
      const principal = principalOf(request);
      const result = await audited(
        ctx,
        await actorOf(ctx, principal),
        async (tx) => {
          const db = tx.database.db;
          const before = await entityLabelOf(db, site.id, kind, value);
          const after = await setEntityLabel(db, {
            siteId: site.id,
            kind,
            value,
            label,
            labeledBy: principal.userId,
            labeledAt: ctx.now(),
          });
          return { before, after };
        },
        ({ before, after }) => ({
          workspaceId: site.workspace_id,
          siteId: site.id,
          action: 'entity.label',
          targetType: 'entity',
          targetId: `${kind}:${after.value}`,
          before: before ? { kind, value: after.value, label: before.label } : null,
          after: { kind, value: after.value, label },
        }),
      );
      return ok({ siteId: site.id, entity: labelView(result.after), previous: result.before?.label ?? null });
    },
  );

  app.delete(
    '/api/entity-labels',
    {
      preValidation: remover.preValidation,
      schema: {
        tags,
        security,
        summary: "Remove an entity's label (undo; owner, analyst)",
        description: '404 when the entity has no label. Audited as `entity.unlabel`.',
        querystring: EntityQuery,
        response: { 200: Envelope(RemoveResult) },
      },
    },
    async (request) => {
      const { site } = remover.of(request);
      const { kind, value } = request.query;
      const removed = await audited(
        ctx,
        await actorOf(ctx, principalOf(request)),
        async (tx) => {
          const before = await entityLabelOf(tx.database.db, site.id, kind, value);
          if (!before) throw new ApiError('not_found', 'The entity has no label.');
          await removeEntityLabel(tx.database.db, site.id, kind, value);
          return before;
        },
        (before) => ({
          workspaceId: site.workspace_id,
          siteId: site.id,
          action: 'entity.unlabel',
          targetType: 'entity',
          targetId: `${kind}:${before.value}`,
          before: { kind, value: before.value, label: before.label },
          after: null,
        }),
      );
      return ok({ siteId: site.id, kind, value: removed.value, removed: removed.label });
    },
  );
}
