import { Type } from '@sinclair/typebox';
import { Envelope } from '@warden/protocol';
import { ENTITY_KINDS, EntitySummary } from '@warden/protocol/management';
import type { DecisionLog } from '../../decisions/decision-log.ts';
import { currentClusterAccounts } from '../../entities/cluster-members.ts';
import { entitySummary } from '../../entities/summary.ts';
import type { IdentityService } from '../../scoring/identity.ts';
import { accessCheck, looseString } from '../access.ts';
import { type AuthDeps, authenticate, principalOf, requireSite } from '../auth.ts';
import { ok } from '../envelope.ts';
import type { App } from '../types.ts';
import { schemaValidator } from '../validation.ts';

const EntityQuery = Type.Object(
  {
    siteId: Type.String({ minLength: 1, maxLength: 64 }),
    kind: Type.Union(
      ENTITY_KINDS.map((k) => Type.Literal(k)),
      { description: 'the decisions filter that selects the entity' },
    ),
    value: Type.String({ minLength: 1, maxLength: 320 }),
  },
  { additionalProperties: false },
);

/** GET /api/entities/summary: the pivot card of the dashboard (every role may read). */
/** What the entity summary uses: the access checks, the decisions' aggregates and clusters, the identity graph. */
export interface EntitiesDeps extends AuthDeps {
  readonly services: {
    readonly decisions: Pick<DecisionLog, 'aggregate' | 'clusters'>;
    readonly identity: IdentityService;
  };
}

export async function entityRoutes(app: App, ctx: EntitiesDeps): Promise<void> {
  const identity = ctx.services.identity;
  app.setValidatorCompiler(schemaValidator('every'));
  // SPEC §10: the site (404) before the schema (400).
  const reader = accessCheck(async (request) => {
    const siteId = looseString(request.query, 'siteId');
    if (siteId !== undefined) await requireSite(ctx, principalOf(request), siteId, 'read');
  });
  app.get(
    '/api/entities/summary',
    {
      onRequest: authenticate(ctx),
      preValidation: reader.preValidation,
      schema: {
        tags: ['decisions'],
        summary: 'What the decisions of a site say about one account, IP, network, device, e-mail, card…',
        security: [{ bearer: [] }],
        querystring: EntityQuery,
        response: { 200: Envelope(EntitySummary) },
      },
    },
    async (request) => {
      const { kind, value, siteId: site } = request.query;
      // A cluster counts the decisions the list shows for it: also its current members' ones.
      const members =
        kind === 'clusterId'
          ? await currentClusterAccounts(ctx.services.decisions.clusters, identity, site, value)
          : undefined;
      return ok(await entitySummary(ctx, site, kind, value, members));
    },
  );
}
