import type { Decision, FingerprintEvidence, VerificationRequest } from '@warden/protocol';

/** HTTP calls to the Warden scoring routes, the way the browser SDK and a customer backend make them. */
export const SITE_ORIGIN = 'https://shop.example';

/** The browser as the service sees it: the address (via the trusted proxy) and the User-Agent header. */
export interface Client {
  ip: string;
  userAgent: string;
  /** Defaults to the site origin; scripts may send none. */
  origin?: string | null;
}

export type Surface = 'browser' | 'server';

export type Outcome =
  | { ok: true; surface: Surface; decision: Decision }
  | { ok: false; surface: Surface; status: number; code: string };

export interface Registration {
  token: string;
  device_id: string;
}

interface Envelope<T> {
  success: boolean;
  data?: T;
  error?: { code?: string };
}

export class Api {
  requests = 0;

  constructor(
    private readonly base: string,
    private readonly siteKey: string,
    private readonly secretKey: string,
  ) {}

  private async post<T>(path: string, headers: Record<string, string>, body: unknown) {
    this.requests++;
    const res = await fetch(`${this.base}/api/antibot${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-site-key': this.siteKey, ...headers },
      body: JSON.stringify(body),
    });
    const text = await res.text();
    let parsed: Envelope<T> = { success: false };
    try {
      parsed = JSON.parse(text) as Envelope<T>;
    } catch {
      parsed = { success: false, error: { code: 'unparseable_response' } };
    }
    return { status: res.status, body: parsed };
  }

  private browserHeaders(client: Client): Record<string, string> {
    const h: Record<string, string> = { 'user-agent': client.userAgent, 'x-forwarded-for': client.ip };
    const origin = client.origin === undefined ? SITE_ORIGIN : client.origin;
    if (origin !== null) h.origin = origin;
    return h;
  }

  private outcome(surface: Surface, r: { status: number; body: Envelope<Decision> }): Outcome {
    if (r.status >= 200 && r.status < 300 && r.body.data) return { ok: true, surface, decision: r.body.data };
    return { ok: false, surface, status: r.status, code: r.body.error?.code ?? 'unknown' };
  }

  /** POST /fingerprint from the browser; undefined when it fails (the SDK then collects without a token). */
  async fingerprint(client: Client, fingerprint: FingerprintEvidence, behavior?: unknown) {
    const r = await this.post<Registration>('/fingerprint', this.browserHeaders(client), {
      fingerprint,
      ...(behavior === undefined ? {} : { behavior }),
    });
    return r.status >= 200 && r.status < 300 ? r.body.data : undefined;
  }

  /** POST /collect from the browser (public site key, Origin, observed IP and User-Agent). */
  async collect(client: Client, body: VerificationRequest): Promise<Outcome> {
    return this.outcome('browser', await this.post<Decision>('/collect', this.browserHeaders(client), body));
  }

  /** POST /verify from the customer's backend (secret key; context carries ip_address and user_agent). */
  async verify(body: VerificationRequest): Promise<Outcome> {
    const headers = { 'x-secret-key': this.secretKey, 'user-agent': 'shop-backend/2.3 (+warden-node)' };
    return this.outcome('server', await this.post<Decision>('/verify', headers, body));
  }
}
