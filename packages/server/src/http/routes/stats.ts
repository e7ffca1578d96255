import { ACTIONS, CLASSIFICATIONS, Envelope, EVENT_TYPES } from '@warden/protocol';
import {
  Stats,
  StatsQuery,
  TOP_DIMENSIONS,
  type TopEntry,
  TopQuery,
  TopValues,
} from '@warden/protocol/management';
import type { DecisionLog } from '../../decisions/decision-log.ts';
import { badQuery, parseTime } from '../../decisions/decision-time.ts';
import { type TopValuesDeps, topDecisionValues } from '../../overview/top-values.ts';
import { accessCheck, looseString } from '../access.ts';
import { type AuthDeps, authenticate, principalOf, requireSite } from '../auth.ts';
import { ok } from '../envelope.ts';
import type { App } from '../types.ts';
import { schemaValidator } from '../validation.ts';

/**
 * GET /api/stats?siteId&from&to (SPEC §9): decision counts by classification, action and event
 * type, and per hour (by classification and by action), for `[from, to)`. Defaults to the last 24 hours; at most 90 days.
 * A protected submit records two decisions, the browser's (`/collect`) and the backend's
 * (`/verify`, whose `browser_decision_id` names the browser one): it is counted once, as the
 * enforced `/verify` decision. Browser decisions no `/verify` names count as themselves.
 */
const HOUR_MS = 3_600_000;
export const DEFAULT_STATS_WINDOW_MS = 24 * HOUR_MS;
export const MAX_STATS_WINDOW_MS = 90 * 24 * HOUR_MS;

function zeros(keys: readonly string[]): Record<string, number> {
  return Object.fromEntries(keys.map((k) => [k, 0]));
}

/** What the statistics routes use: the access checks, the hourly counts and the top values' queries. */
export interface StatsDeps extends AuthDeps, TopValuesDeps {
  readonly database: AuthDeps['database'] & TopValuesDeps['database'];
  readonly services: { readonly decisions: Pick<DecisionLog, 'hourlyCounts'> };
}

export async function siteStats(
  ctx: Pick<StatsDeps, 'services'>,
  siteId: string,
  from: number,
  to: number,
): Promise<Stats> {
  // Totals by classification and by action are sums of the hourly rows: no query of their own.
  const {
    byEventType,
    byClassification: hourly,
    byAction: hourlyActions,
  } = await ctx.services.decisions.hourlyCounts(siteId, from, to);
  const tally = (rows: Array<{ k: string; n: number }>, keys: readonly string[]) => {
    const out = zeros(keys);
    for (const row of rows) out[row.k] = (out[row.k] ?? 0) + Number(row.n);
    return out;
  };
  const hours = new Map<number, Stats['hourly'][number]>();
  const bucketOf = (h: number) => {
    let bucket = hours.get(h);
    if (!bucket) {
      bucket = {
        hour: new Date(h * HOUR_MS).toISOString(),
        total: 0,
        human: 0,
        suspicious: 0,
        bot: 0,
        allow: 0,
        review: 0,
        challenge: 0,
        block: 0,
      };
      hours.set(h, bucket);
    }
    return bucket;
  };
  for (const row of hourly) {
    const bucket = bucketOf(Number(row.h));
    const n = Number(row.n);
    bucket.total += n;
    if ((CLASSIFICATIONS as readonly string[]).includes(row.classification)) {
      bucket[row.classification as (typeof CLASSIFICATIONS)[number]] += n;
    }
  }
  // The same decisions counted by action (`total` comes from the classification rows).
  for (const row of hourlyActions) {
    const bucket = bucketOf(Number(row.h));
    if ((ACTIONS as readonly string[]).includes(row.action)) {
      bucket[row.action as (typeof ACTIONS)[number]] += Number(row.n);
    }
  }
  const classes = tally(
    hourly.map((r) => ({ k: r.classification, n: r.n })),
    CLASSIFICATIONS,
  );
  return {
    siteId,
    from: new Date(from).toISOString(),
    to: new Date(to).toISOString(),
    total: Object.values(classes).reduce((a, b) => a + b, 0),
    byClassification: classes,
    byAction: tally(
      hourlyActions.map((r) => ({ k: r.action, n: r.n })),
      ACTIONS,
    ),
    byEventType: tally(byEventType, EVENT_TYPES),
    hourly: [...hours.entries()].sort((a, b) => a[0] - b[0]).map(([, bucket]) => bucket),
  };
}

/** The window of a stats query: `[from, to)`, default the last 24 hours, at most 90 days (400 otherwise). */
function statsWindow(
  ctx: Pick<StatsDeps, 'now'>,
  query: { from?: string | undefined; to?: string | undefined },
) {
  const to = parseTime(query.to, 'querystring.to') ?? ctx.now();
  const from = parseTime(query.from, 'querystring.from') ?? to - DEFAULT_STATS_WINDOW_MS;
  if (from >= to) throw badQuery('querystring.from', 'must be before to');
  if (to - from > MAX_STATS_WINDOW_MS)
    throw badQuery('querystring.from', 'the window may span at most 90 days');
  return { from, to };
}

export async function statsRoutes(app: App, ctx: StatsDeps): Promise<void> {
  app.setValidatorCompiler(schemaValidator('every'));
  // SPEC §10: the site (404) and the role (403) before the schema (400).
  const reader = accessCheck(async (request) => {
    const siteId = looseString(request.query, 'siteId');
    if (siteId !== undefined) await requireSite(ctx, principalOf(request), siteId, 'read');
  });
  app.get(
    '/api/stats',
    {
      onRequest: authenticate(ctx),
      preValidation: reader.preValidation,
      schema: {
        tags: ['decisions'],
        summary: 'Decision counts of a site by classification, action, event type and hour',
        security: [{ bearer: [] }],
        querystring: StatsQuery,
        response: { 200: Envelope(Stats) },
      },
    },
    async (request) => {
      const { from, to } = statsWindow(ctx, request.query);
      return ok(await siteStats(ctx, request.query.siteId, from, to));
    },
  );

  app.get(
    '/api/stats/top',
    {
      onRequest: authenticate(ctx),
      preValidation: reader.preValidation,
      schema: {
        tags: ['decisions'],
        summary:
          'Top signals, custom rules, IPs, ASNs, countries and e-mail domains of a period, with the previous period',
        security: [{ bearer: [] }],
        querystring: TopQuery,
        response: { 200: Envelope(TopValues) },
      },
    },
    async (request) => {
      const range = statsWindow(ctx, request.query);
      const limit = request.query.limit === undefined ? 10 : Number(request.query.limit);
      const top: Record<string, TopEntry[]> = {};
      for (const dimension of TOP_DIMENSIONS)
        top[dimension] = await topDecisionValues(ctx, dimension, request.query.siteId, range, limit);
      return ok({
        siteId: request.query.siteId,
        from: new Date(range.from).toISOString(),
        to: new Date(range.to).toISOString(),
        previousFrom: new Date(2 * range.from - range.to).toISOString(),
        ...top,
      });
    },
  );
}
