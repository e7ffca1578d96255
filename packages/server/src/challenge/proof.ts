import type { AppContext } from '../context.ts';
import type { SitesTable } from '../storage/schema.ts';
import { verifyAltchaPayload } from './altcha.ts';
import { type ChallengeVerification, verifyChallenge } from './index.ts';

/** A solved challenge in either form: Warden's `{challenge_id, nonce}` or the ALTCHA widget's payload. */
export type PowProofInput = { challenge_id: string; nonce: string | number } | { altcha: string };

/** Check (and consume) a proof of work in either form. */
export function verifyPowProof(
  ctx: AppContext,
  site: SitesTable,
  proof: PowProofInput,
): Promise<ChallengeVerification> {
  return 'altcha' in proof ? verifyAltchaPayload(ctx, site, proof.altcha) : verifyChallenge(ctx, site, proof);
}
