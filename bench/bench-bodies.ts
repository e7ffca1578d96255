/**
 * Realistic, varied /verify bodies for the benchmark: many accounts, IPs and devices, every event
 * type, browser evidence of a plausible size, and a unique idempotency key and nonce per request.
 * Bodies are pre-built as text prefixes; only the unique suffix is added per request.
 */
const EVENT_TYPES = [
  'login',
  'login',
  'login',
  'signup',
  'page_view',
  'page_view',
  'checkout',
  'promo_claim',
];
const USER_AGENTS = [
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/140.0.0.0 Safari/537.36',
  'Mozilla/5.0 (Macintosh; Intel Mac OS X 14_6) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.2 Safari/605.1.15',
  'Mozilla/5.0 (X11; Linux x86_64; rv:140.0) Gecko/20100101 Firefox/140.0',
  'Mozilla/5.0 (iPhone; CPU iPhone OS 18_2 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.2 Mobile/15E148 Safari/604.1',
];
const RENDERERS = [
  'ANGLE (NVIDIA GeForce RTX 3060)',
  'Apple M2',
  'Mesa Intel(R) UHD Graphics 620',
  'Adreno (TM) 740',
];
const FONTS = [
  'Arial',
  'Helvetica',
  'Times New Roman',
  'Courier New',
  'Verdana',
  'Georgia',
  'Noto Sans',
  'Roboto',
];

function rng(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s * 1664525 + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

function hex(rand: () => number, n: number): string {
  let out = '';
  for (let i = 0; i < n; i++) out += Math.floor(rand() * 16).toString(16);
  return out;
}

export interface BodyPool {
  /** A unique request body (JSON text) for request number `n`. */
  body(n: number): string;
  size: number;
}

export function buildBodyPool(
  options: { templates?: number; accounts?: number; ips?: number; devices?: number } = {},
): BodyPool {
  const templates = options.templates ?? 4096;
  const rand = rng(42);
  const pick = <T>(list: readonly T[]): T => list[Math.floor(rand() * list.length)]!;
  const devices = Array.from({ length: options.devices ?? 3000 }, (_, i) => ({
    canvas_hash: hex(rand, 32),
    audio_hash: hex(rand, 16),
    webgl: { vendor: 'Google Inc.', renderer: pick(RENDERERS) },
    screen: { width: pick([1920, 1440, 390, 2560]), height: pick([1080, 900, 844, 1440]), color_depth: 24 },
    timezone: pick(['Europe/Berlin', 'America/New_York', 'Asia/Tokyo']),
    languages: ['en-US', 'en'],
    hardware_concurrency: pick([4, 8, 12]),
    fonts: FONTS.slice(0, 4 + (i % 4)),
    user_agent: pick(USER_AGENTS),
  }));
  const prefixes: string[] = [];
  for (let i = 0; i < templates; i++) {
    const eventType = pick(EVENT_TYPES);
    const device = pick(devices);
    const account = Math.floor(rand() * (options.accounts ?? 20_000));
    const ip = Math.floor(rand() * (options.ips ?? 5000));
    const context: Record<string, unknown> = {
      event_type: eventType,
      account_id: `acct_${account}`,
      ip_address: `198.${18 + (ip >> 16)}.${(ip >> 8) & 255}.${ip & 255}`,
      user_agent: device.user_agent,
      request_url: `https://shop.example/${eventType}`,
    };
    if (eventType === 'signup') context.email = `user${account}@example.com`;
    if (eventType === 'login') context.login_succeeded = rand() > 0.2;
    if (eventType === 'checkout') {
      context.order_amount = Math.round(rand() * 50000) / 100;
      context.payment_hash = `pm_${hex(rand, 12)}`;
    }
    if (eventType === 'promo_claim') context.promo_code = 'WELCOME10';
    const mouse = Array.from({ length: 30 }, (_, k) => [
      k * 16,
      Math.floor(rand() * 1200),
      Math.floor(rand() * 800),
    ]);
    const behavior = {
      time_to_submit_ms: 2000 + Math.floor(rand() * 20000),
      active_ms: 1500 + Math.floor(rand() * 15000),
      mouse_moves: 120,
      clicks: 3,
      key_presses: 24,
      mouse,
      key_samples: Array.from({ length: 12 }, (_, k) => [3000 + k * 140, 60 + Math.floor(rand() * 60)]),
    };
    const head = JSON.stringify({ context, fingerprint: device, behavior }).slice(0, -1);
    const env = JSON.stringify({
      sdk_version: '1.0.0',
      webdriver: false,
      webdriver_defined: 'absent',
      cdp: false,
    });
    prefixes.push(`${head},"environment":${env.slice(0, -1)},"timestamp":`);
  }
  return {
    size: templates,
    body(n: number): string {
      return `${prefixes[n % templates]}${Date.now()},"nonce":"n${n}"},"idempotency_key":"bench-${n}"}`;
    },
  };
}
