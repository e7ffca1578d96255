import type { AppContext } from '../context.ts';
import { ApiError } from '../errors.ts';
import type { SitesTable } from '../storage/schema.ts';
import { deviceIdFromEvidence } from './device-id.ts';
import { signToken, TOKEN_TTL_MS } from './token.ts';

export interface FingerprintRegistration {
  token: string;
  device_id: string;
  expires_at: string;
}

/**
 * POST /fingerprint and /verify/fingerprint (SPEC §4): device id from the stable evidence, and a
 * signed token naming the site and the device, valid 10 minutes. Evidence without a single stable
 * attribute cannot name a device: 400 validation_failed.
 */
export async function registerFingerprint(
  ctx: AppContext,
  site: SitesTable,
  body: { fingerprint: unknown; behavior?: unknown },
): Promise<FingerprintRegistration> {
  const deviceId = deviceIdFromEvidence(body.fingerprint);
  if (deviceId === '') {
    throw new ApiError('validation_failed', 'The fingerprint carries no stable device attribute.', [
      {
        path: 'body.fingerprint',
        message: 'needs at least one stable attribute (canvas_hash, webgl, audio_hash, fonts, screen, …)',
      },
    ]);
  }
  const expiresAt = ctx.now() + TOKEN_TTL_MS;
  return {
    token: signToken(ctx.secret, site.id, deviceId, expiresAt),
    device_id: deviceId,
    expires_at: new Date(expiresAt).toISOString(),
  };
}
