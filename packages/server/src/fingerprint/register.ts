import type { AppContext } from '../context.ts';
import type { SitesTable } from '../storage/schema.ts';
import { deviceIdFromStable, stableFingerprint } from './device-id.ts';
import { hardwareProfileFromStable } from './hardware.ts';
import { signToken, TOKEN_TTL_MS } from './token.ts';

export interface FingerprintRegistration {
  token: string;
  device_id: string;
  expires_at: string;
}

/**
 * POST /fingerprint and /verify/fingerprint (SPEC §4): device id from the stable evidence, and a
 * signed token naming the site and the device, valid 10 minutes. Everything inside `fingerprint`
 * is optional (SPEC §10): evidence without a single stable attribute (a browser that blocks every
 * probe) names no device, so `device_id` is "" (SPEC: no evidence, no device, nothing linked) and
 * the token names none either. The device's hardware profile (hardware.ts) is remembered in hot
 * state for the server-side events that carry the token.
 */
export async function registerFingerprint(
  ctx: AppContext,
  site: SitesTable,
  body: { fingerprint: unknown; behavior?: unknown },
): Promise<FingerprintRegistration> {
  const stable = stableFingerprint(body.fingerprint);
  const deviceId = deviceIdFromStable(stable);
  const now = ctx.now();
  const expiresAt = now + TOKEN_TTL_MS;
  // The server side only sees the token: remember the device's hardware profile for it.
  if (deviceId !== '')
    await ctx.services.hardwareWrites
      .remember(ctx.hotState, site.id, deviceId, hardwareProfileFromStable(stable), now)
      .catch((err: unknown) => ctx.logger.warn({ err, siteId: site.id }, 'hardware profile not remembered'));
  return {
    token: signToken(ctx.services.keys.fingerprintToken, site.id, deviceId, expiresAt),
    device_id: deviceId,
    expires_at: new Date(expiresAt).toISOString(),
  };
}
