import { issueChallenge, parseDifficulty } from '../../challenge/index.ts';
import { verifyPowProof } from '../../challenge/proof.ts';
import { registerFingerprint } from '../../fingerprint/register.ts';
import type { Readiness } from '../../readiness.ts';
import type { ScoringEngine } from '../../scoring/engine-types.ts';
import type { App } from '../types.ts';
import { type ScoringDeps, type ScoringServices, scoringApi } from './scoring.ts';

/** The production services behind the scoring routes: the real engine, fingerprints and challenges. */
export function productionScoringServices(ctx: {
  readonly services: { readonly engine: ScoringEngine };
}): ScoringServices {
  return {
    engine: ctx.services.engine,
    registerFingerprint,
    parseDifficulty,
    issueChallenge: async (c, site, options) => ({ ...(await issueChallenge(c, site, options)) }),
    verifyChallenge: verifyPowProof,
  };
}

/** What the scoring area is built from: the routes' deps, the engine, and the start-up steps `/readyz` waits for. */
export type ScoringAreaDeps = ScoringDeps & {
  readonly services: { readonly engine: ScoringEngine };
  readonly readiness?: Pick<Readiness, 'track'> | undefined;
};

/** The scoring area as registered in http/routes.ts. */
export async function scoringArea(scope: App, ctx: ScoringAreaDeps): Promise<void> {
  const services = productionScoringServices(ctx);
  if (services.engine.prepare) ctx.readiness?.track('scoringEngine', services.engine.prepare());
  await scoringApi(scope, ctx, services);
}
