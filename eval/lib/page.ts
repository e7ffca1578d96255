import type { EnvironmentEvidence, ScoringContext, VerificationRequest } from '@warden/protocol';
import type { Client } from './api.ts';
import type { Device } from './devices.ts';
import { PageRecorder } from './recorder.ts';
import type { Rng } from './rng.ts';
import type { Step } from './types.ts';

/**
 * One page load with the browser SDK on it: the recorder fills with raw input (page time, ms
 * since load); at submit the SDK registers the fingerprint (POST /fingerprint), then scores the
 * event (POST /collect) with the token, evidence, behaviour and a fresh environment; the
 * protected form hands the token to the shop's backend, which calls /verify.
 */
export class BrowserPage {
  readonly rec = new PageRecorder();
  token: string | undefined;
  readonly client: Client;

  constructor(
    readonly device: Device,
    ip: string,
    /** Virtual epoch ms of the page load. */
    readonly loadAt: number,
    private readonly rng: Rng,
  ) {
    this.client = { ip, userAgent: device.userAgent };
  }

  environment(pageTime: number): EnvironmentEvidence {
    const d = this.device;
    return {
      v: 1,
      sdk_version: '1.0.0',
      webdriver: d.tells.webdriver ?? null,
      webdriver_defined: d.tells.webdriver_defined ?? 'getter_native',
      headless_markers: [...(d.tells.headless_markers ?? [])],
      automation_artifacts: [...(d.tells.automation_artifacts ?? [])],
      cdp: d.tells.cdp ?? false,
      tampered_functions: [...(d.tells.tampered_functions ?? [])],
      window: { ...d.window },
      visible: true,
      has_focus: true,
      in_iframe: false,
      worker: { ...d.worker },
      uptime_ms: Math.round(pageTime),
      timestamp: Math.round(this.loadAt + pageTime + d.clockSkewMs),
      nonce: this.rng.hex(32),
    };
  }

  /** The SDK's fingerprint registration at page time `t` (behaviour snapshot included). */
  register(t: number): Step {
    return {
      at: this.loadAt + t,
      run: async (api) => {
        const r = await api.fingerprint(this.client, this.device.fingerprint, this.rec.snapshot(t));
        this.token = r?.token;
        return undefined;
      },
    };
  }

  /** The SDK's /collect at page time `t`; `tweak` lets a scenario alter the body (replays, stripping). */
  collect(
    t: number,
    context: ScoringContext,
    tweak?: (body: VerificationRequest) => VerificationRequest,
  ): Step {
    const key = `wd_${this.rng.hex(32)}`;
    return {
      at: this.loadAt + t + 25,
      run: async (api) => {
        const body: VerificationRequest = {
          context: { request_url: 'https://shop.example/', ...context },
          ...(this.token ? { token: this.token } : {}),
          fingerprint: this.device.fingerprint,
          behavior: this.rec.snapshot(t),
          environment: this.environment(t + 20),
          idempotency_key: key,
        };
        return api.collect(this.client, tweak ? tweak(body) : body);
      },
    };
  }

  /** The shop's backend verifying the submitted form: token + trusted context. */
  verify(t: number, context: ScoringContext): Step {
    return {
      at: this.loadAt + t + this.rng.uniform(120, 400),
      run: (api) =>
        api.verify({
          context: { ...context, ip_address: this.client.ip, user_agent: this.client.userAgent },
          ...(this.token ? { token: this.token } : {}),
        }),
    };
  }
}
