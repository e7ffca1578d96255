import type { SitesTable } from '../storage/schema.ts';
import { verifyAltchaPayload } from './altcha.ts';
import type { ChallengeDeps } from './index.ts';
import { verifyChallenge } from './index.ts';
import type { ChallengeVerification, PowProofInput } from './types.ts';

export type { PowProofInput } from './types.ts';

/** Check (and consume) a proof of work in either form. */
export function verifyPowProof(
  ctx: ChallengeDeps,
  site: SitesTable,
  proof: PowProofInput,
): Promise<ChallengeVerification> {
  return 'altcha' in proof ? verifyAltchaPayload(ctx, site, proof.altcha) : verifyChallenge(ctx, site, proof);
}
