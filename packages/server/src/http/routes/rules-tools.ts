import { RuleHitsQuery, RuleTestBody, SiteQuery } from '@warden/protocol/management';
import type { RuleDecisions } from '../../decisions/rule-queries.ts';
import { ApiError } from '../../errors.ts';
import type { RuledDecision } from '../../rules/apply.ts';
import { type BacktestDeps, type ReplayedRow, runBacktest } from '../../rules/backtest.ts';
import { draftRuleset } from '../../rules/draft.ts';
import { ruleHits } from '../../rules/hits.ts';
import { ruleProblems } from '../../rules/repo.ts';
import { signalCatalogue } from '../../scoring/signal-catalogue.ts';
import { accessCheck, looseString } from '../access.ts';
import { type AuthDeps, authenticate, principalOf, requireSite } from '../auth.ts';
import { ok } from '../envelope.ts';
import type { App } from '../types.ts';

const tags = ['rules'];
const security = [{ bearer: [] }];
const DAY = 24 * 3600 * 1000;
const MAX_HITS_WINDOW = 90 * DAY;

/** The stored decision `id` of `siteId`, or 404. */
/** What the rule tools use: the access checks, the recorded decisions (hits, one decision, a replay) and the rules' budget. */
export interface RuleToolsDeps extends AuthDeps, BacktestDeps {
  readonly services: {
    readonly decisions: {
      readonly rules: Pick<RuleDecisions, 'ofSite' | 'recordedMatches' | 'backtestPage'>;
    };
  };
}

async function decisionOfSite(ctx: Pick<RuleToolsDeps, 'services'>, siteId: string, id: string) {
  const row = await ctx.services.decisions.rules.ofSite(siteId, id);
  if (!row) throw new ApiError('not_found', 'Decision not found.');
  return row;
}

function badTime(path: string, message: string): ApiError {
  return new ApiError('validation_failed', `Invalid ${path}: ${message}.`, [{ path, message }]);
}

/**
 * The rule editor's and the rules list's helpers: the built-in signal catalogue, each rule's live
 * and shadow hit counts over a period, and a draft rule tried on one stored decision.
 */
export async function ruleToolRoutes(app: App, ctx: RuleToolsDeps): Promise<void> {
  app.addHook('onRequest', authenticate(ctx));
  // SPEC §10: the site (404) and the role (403) before the schema (400); without a siteId the
  // schema answers.
  const readSite = accessCheck(async (request) => {
    const siteId = looseString(request.query, 'siteId');
    if (siteId !== undefined) await requireSite(ctx, principalOf(request), siteId, 'read');
  });
  const writeSite = accessCheck((request) => {
    const siteId = looseString(request.query, 'siteId');
    return siteId ? requireSite(ctx, principalOf(request), siteId, 'rules.write') : undefined;
  });

  app.get(
    '/api/signals',
    {
      schema: {
        tags,
        security,
        summary: 'The built-in signals: name, family, default score and description (docs/signals.md)',
      },
    },
    async () => ok({ signals: signalCatalogue() }),
  );

  app.get(
    '/api/rules/hits',
    {
      preValidation: readSite.preValidation,
      schema: {
        tags,
        security,
        summary: 'Live and shadow matches of every custom rule of a site over a period, with a series',
        querystring: RuleHitsQuery,
      },
    },
    async (request) => {
      const q = request.query;
      const to = q.to === undefined ? ctx.now() : Date.parse(q.to);
      const from = q.from === undefined ? to - 7 * DAY : Date.parse(q.from);
      if (from >= to) throw badTime('querystring.from', 'must be before to');
      if (to - from > MAX_HITS_WINDOW)
        throw badTime('querystring.from', 'the window may span at most 90 days');
      const buckets = q.buckets === undefined ? 14 : Number(q.buckets);
      const hits = await ruleHits(ctx, q.siteId, { from, to }, buckets);
      return ok({
        siteId: q.siteId,
        from: new Date(from).toISOString(),
        to: new Date(to).toISOString(),
        buckets,
        rules: Object.fromEntries(hits),
      });
    },
  );

  app.post(
    '/api/rules/test',
    {
      preValidation: writeSite.preValidation,
      schema: {
        tags,
        security,
        summary: 'Evaluate a draft rule on one stored decision (owner, analyst)',
        querystring: SiteQuery,
        body: RuleTestBody,
      },
    },
    async (request) => {
      const siteId = writeSite.of(request).site.id;
      const { decisionId, rule } = request.body;
      const problems = ruleProblems(
        { expression: rule.expression, score: rule.score ?? null, action: rule.action ?? null },
        'body.rule',
      );
      if (problems.length > 0)
        throw new ApiError(
          'validation_failed',
          `The draft rule is invalid: ${problems[0]?.path} ${problems[0]?.message}`,
          problems,
        );
      const decision = await decisionOfSite(ctx, siteId, decisionId);
      const ruleset = await draftRuleset(ctx, siteId, { rules: [{ ...rule, enabled: true }] });
      let replay: { row: ReplayedRow; after: RuledDecision } | undefined;
      await runBacktest(ctx, ruleset, {
        siteId: siteId,
        from: decision.created_at,
        to: decision.created_at + 1,
        maxEvents: 1,
        examples: 0,
        decisionId,
        observe: (row, after) => {
          replay = { row, after };
        },
      });
      if (!replay) throw new ApiError('not_found', 'Decision not found.');
      const { row, after } = replay;
      const failure = after.signals.find(
        (s) => s.rule === `rule_error:${rule.name}` || s.rule === `rule_timeout:${rule.name}`,
      );
      const eventTypes = rule.eventTypes ?? [];
      return ok({
        decisionId,
        rule: rule.name,
        mode: rule.mode ?? 'live',
        applies: eventTypes.length === 0 || (eventTypes as string[]).includes(row.event_type),
        matched:
          after.custom.matched.includes(rule.name) || after.custom.shadow.some((s) => s.rule === rule.name),
        error: failure ? failure.description : null,
        before: {
          score: row.risk_score,
          level: row.risk_level,
          classification: row.classification,
          action: row.action,
        },
        after: {
          score: after.risk_score,
          level: after.risk_level,
          classification: after.classification,
          action: after.action,
        },
        signals: after.signals,
      });
    },
  );
}
