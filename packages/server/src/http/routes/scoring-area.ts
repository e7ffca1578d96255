import { issueChallenge, parseDifficulty } from '../../challenge/index.ts';
import { verifyPowProof } from '../../challenge/proof.ts';
import type { AppContext } from '../../context.ts';
import { registerFingerprint } from '../../fingerprint/register.ts';
import type { App } from '../types.ts';
import { type ScoringServices, scoringApi } from './scoring.ts';

/** The production services behind the scoring routes: the real engine, fingerprints and challenges. */
export function productionScoringServices(ctx: AppContext): ScoringServices {
  return {
    engine: ctx.services.engine,
    registerFingerprint,
    parseDifficulty,
    issueChallenge: async (c, site, options) => ({ ...(await issueChallenge(c, site, options)) }),
    verifyChallenge: verifyPowProof,
  };
}

/** The scoring area as registered in http/routes.ts. */
export async function scoringArea(scope: App, ctx: AppContext): Promise<void> {
  const services = productionScoringServices(ctx);
  if (services.engine.prepare) ctx.readiness?.track('scoringEngine', services.engine.prepare());
  await scoringApi(scope, ctx, services);
}
