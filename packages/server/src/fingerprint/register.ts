import type { Logger } from 'pino';
import type { HotState } from '../state/hot-state.ts';
import type { SitesTable } from '../storage/schema.ts';
import { deviceIdFromStable, isRecord, stableFingerprint, str } from './device-id.ts';
import { linkDevice } from './device-link.ts';
import { type HardwareProfileWrites, hardwareProfileFromStable } from './hardware.ts';
import { signToken, TOKEN_TTL_MS } from './token.ts';

/** What registering a device uses: the clock, the hot state (links, hardware profiles), the token key and a logger. */
export interface FingerprintDeps {
  now(): number;
  readonly hotState: HotState;
  readonly logger: Pick<Logger, 'warn'>;
  readonly services: {
    readonly hardwareWrites: Pick<HardwareProfileWrites, 'remember'>;
    readonly keys: { readonly fingerprintToken: Buffer };
  };
}

export interface FingerprintRegistration {
  token: string;
  device_id: string;
  expires_at: string;
}

/**
 * POST /fingerprint and /verify/fingerprint (SPEC §4): the device named by the stable evidence,
 * the SDK's first-party visitor id, or a close match among the site's known devices
 * (device-link.ts), and a signed token naming the site, the device and how it was linked, valid
 * 10 minutes. Everything inside `fingerprint` is optional (SPEC §10): evidence without a single
 * stable attribute (a browser that blocks every probe) names no device, so `device_id` is ""
 * (SPEC: no evidence, no device, nothing linked) and the token names none either. The device's
 * hardware profile (hardware.ts) is remembered in hot state for the server-side events that
 * carry the token.
 */
export async function registerFingerprint(
  ctx: FingerprintDeps,
  site: SitesTable,
  body: { fingerprint: unknown; behavior?: unknown },
): Promise<FingerprintRegistration> {
  const fp = isRecord(body.fingerprint) ? body.fingerprint : {};
  const stable = stableFingerprint(fp);
  const now = ctx.now();
  const visitorId = str(fp.visitor_id, 64) ?? '';
  const userAgent = str(fp.user_agent, 512) ?? '';
  // Without the hot state the evidence still names its own device: linking is an addition.
  const linked = await linkDevice(ctx.hotState, site.id, stable, visitorId, userAgent, now).catch(
    (err: unknown) => {
      ctx.logger.warn({ err, siteId: site.id }, 'device not linked');
      const own = deviceIdFromStable(stable);
      return {
        deviceId: own,
        fingerprintId: own,
        link: 'exact',
        confidence: 1,
        visitorConflict: false,
      } as const;
    },
  );
  const deviceId = linked.deviceId;
  const expiresAt = now + TOKEN_TTL_MS;
  // The server side only sees the token: remember the device's hardware profile for it.
  if (deviceId !== '')
    await ctx.services.hardwareWrites
      .remember(ctx.hotState, site.id, deviceId, hardwareProfileFromStable(stable), now)
      .catch((err: unknown) => ctx.logger.warn({ err, siteId: site.id }, 'hardware profile not remembered'));
  return {
    token: signToken(ctx.services.keys.fingerprintToken, site.id, deviceId, expiresAt, {
      ...linked,
      visitorId,
    }),
    device_id: deviceId,
    expires_at: new Date(expiresAt).toISOString(),
  };
}
