/**
 * A generated, deterministic set of /verify requests for the golden decision test
 * (decisions.golden.test.ts): bare and evidence bodies, humans and scripted bots, repeated
 * accounts, IPs, devices and payment hashes (velocity and identity clusters), idempotency keys
 * used once, replayed with the same body reordered, and reused with another body.
 */
const UAS = [
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/140.0.0.0 Safari/537.36',
  'Mozilla/5.0 (Macintosh; Intel Mac OS X 14_6) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.2 Safari/605.1.15',
  'Mozilla/5.0 (X11; Linux x86_64; rv:140.0) Gecko/20100101 Firefox/140.0',
  'python-requests/2.32.3',
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) HeadlessChrome/140.0.0.0 Safari/537.36',
];
const EVENTS = ['login', 'signup', 'page_view', 'checkout', 'promo_claim'] as const;

function rng(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}
const r1 = (v: number) => Math.round(v * 10) / 10;

/** Mouse samples: a hand (curved, jittered, uneven timing) or a script (straight, even steps). */
function mouse(rand: () => number, kind: 'human' | 'line' | 'zero' | 'bezier', n: number): number[][] {
  const out: number[][] = [];
  let t = 300 + rand() * 500;
  let x = 100 + rand() * 900;
  let y = 100 + rand() * 500;
  while (out.length < n) {
    const tx = 100 + rand() * 900;
    const ty = 100 + rand() * 500;
    const cx = (x + tx) / 2 + (rand() - 0.5) * 240;
    const cy = (y + ty) / 2 + (rand() - 0.5) * 240;
    const steps = 12 + Math.floor(rand() * 30);
    for (let k = 1; k <= steps && out.length < n; k++) {
      const u = k / steps;
      if (kind === 'line') {
        t += 16;
        out.push([t, r1(x + (tx - x) * u), r1(y + (ty - y) * u)]);
      } else if (kind === 'zero') {
        t += 16;
        out.push([t, r1(k % 3 === 0 ? x : x + (tx - x) * u), r1(k % 3 === 0 ? y : y + (ty - y) * u)]);
      } else {
        const e = kind === 'human' ? u * u * (3 - 2 * u) : u;
        const jitter = kind === 'human' ? 2.5 : 0;
        const px = (1 - e) ** 2 * x + 2 * (1 - e) * e * cx + e * e * tx + (rand() - 0.5) * jitter;
        const py = (1 - e) ** 2 * y + 2 * (1 - e) * e * cy + e * e * ty + (rand() - 0.5) * jitter;
        t += kind === 'human' ? 8 + rand() * 18 : 16;
        out.push([r1(t), r1(px), r1(py)]);
      }
    }
    t += 120 + rand() * 500;
    x = tx;
    y = ty;
  }
  return out;
}

export interface GoldenRequest {
  body: Record<string, unknown>;
  /** Seconds the test clock advances before this request. */
  advance: number;
}

export function goldenRequests(count = 160, now = 1_700_000_000_000): GoldenRequest[] {
  const rand = rng(7);
  const pick = <T>(list: readonly T[]): T => list[Math.floor(rand() * list.length)]!;
  const out: GoldenRequest[] = [];
  let clock = now;
  for (let i = 0; i < count; i++) {
    const advance = pick([0, 1, 1, 2, 5, 30, 400]);
    clock += advance * 1000;
    // Few accounts, IPs, devices and cards, so that velocity and clusters build up.
    const account = Math.floor(rand() * 25);
    const ip = Math.floor(rand() * 12);
    const device = Math.floor(rand() * 10);
    const ua = device < 6 ? UAS[device % 3]! : pick(UAS);
    const eventType = pick(EVENTS);
    const context: Record<string, unknown> = {
      event_type: eventType,
      account_id: `acct_${account}`,
      ip_address: ip < 10 ? `203.0.113.${ip * 7}` : `2001:db8::${ip}`,
      user_agent: ua,
    };
    if (rand() < 0.6)
      context.email = `user${account}@${pick(['example.com', 'mailinator.com', 'gmail.com'])}`;
    if (eventType === 'login') context.login_succeeded = rand() < 0.6;
    if (eventType === 'checkout') {
      context.order_amount = Math.round(rand() * 90000) / 100;
      context.payment_hash = `pm_${Math.floor(rand() * 6)}`;
    }
    if (eventType === 'promo_claim') context.promo_code = pick(['WELCOME10', 'SPRING']);
    const body: Record<string, unknown> = { context };
    const kind = rand();
    if (kind > 0.25) {
      const bot = device >= 8;
      body.fingerprint = {
        v: 1,
        user_agent: ua,
        platform: pick(['Win32', 'MacIntel', 'Linux x86_64']),
        languages: ['en-US', 'en'],
        timezone: pick(['Europe/Berlin', 'America/New_York']),
        timezone_offset: -60,
        screen: { width: 1920, height: 1080, color_depth: 24, pixel_ratio: 1 },
        hardware_concurrency: 4 + (device % 3) * 4,
        canvas_hash: `canvas${device}`,
        webgl: { unmasked_vendor: 'Google Inc.', unmasked_renderer: bot ? 'SwiftShader' : `GPU ${device}` },
        audio_hash: `audio${device}`,
        fonts: ['Arial', 'Verdana'],
        plugins_count: bot ? 0 : 5,
      };
      const movement = bot ? pick(['line', 'zero', 'bezier'] as const) : 'human';
      const samples = mouse(rand, movement, pick([0, 3, 20, 120, 200]));
      body.behavior = {
        v: 1,
        time_to_submit_ms: bot ? 300 + Math.floor(rand() * 500) : 3000 + Math.floor(rand() * 20000),
        mouse_moves: samples.length * (bot ? 1 : 3),
        clicks: 2,
        key_presses: bot ? 0 : 12,
        paste_count: rand() < 0.1 ? 1 : 0,
        mouse: samples,
        key_samples: bot
          ? Array.from({ length: 8 }, (_, k) => [1000 + k * 50, 2])
          : Array.from({ length: 12 }, (_, k) => [r1(2000 + k * (90 + rand() * 120)), r1(50 + rand() * 70)]),
        click_samples: samples.length > 10 ? [[...samples[5]!, 0]] : [],
      };
      body.environment = {
        v: 1,
        sdk_version: '1.0.0',
        timestamp: clock - Math.floor(rand() * 3000) - (rand() < 0.05 ? 3_600_000 : 0),
        nonce: `nonce-${rand() < 0.05 ? 1 : i}`,
        webdriver: bot && rand() < 0.5,
        webdriver_defined: bot ? 'own' : 'prototype',
        headless_markers: bot ? ['no_plugins'] : [],
        cdp: bot && rand() < 0.3,
      };
    }
    if (rand() < 0.4) body.idempotency_key = `key-${i}`;
    out.push({ body, advance });
    // Replays: the same key with the keys of the body reordered (a replay), or another body (409).
    if (body.idempotency_key !== undefined && rand() < 0.3) {
      const reordered = Object.fromEntries(Object.entries(body).reverse());
      out.push({ body: reordered, advance: 1 });
    } else if (body.idempotency_key !== undefined && rand() < 0.2) {
      out.push({ body: { ...body, context: { ...context, account_id: 'acct_other' } }, advance: 1 });
    }
  }
  return out;
}
