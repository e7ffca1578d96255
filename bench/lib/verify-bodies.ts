/**
 * High-cardinality /verify bodies for `npm run bench`: every event is a new account, IP address,
 * e-mail address and (for checkouts) payment hash, so hot state and the identity graph grow as they
 * do under real traffic from many users. Two kinds:
 * - bare: `context` only, as a server that sends no browser evidence does (~250 B);
 * - evidence: `context` plus the browser SDK's `fingerprint`, `behavior` (~200 mouse samples with
 *   one decimal, as packages/browser/src/behavior/recorder.ts records them, plus clicks, keys and
 *   scrolls) and `environment` (~6–7 KB), a new device per event; every second one carries an
 *   `idempotency_key`.
 * Deterministic for a given event number.
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
];
const PLATFORMS = ['Win32', 'MacIntel', 'Linux x86_64'];
const RENDERERS = [
  'ANGLE (NVIDIA GeForce RTX 3060 Direct3D11 vs_5_0 ps_5_0)',
  'Apple M2',
  'Mesa Intel(R) UHD Graphics 620',
];
const ZONES: [string, number][] = [
  ['Europe/Berlin', -60],
  ['America/New_York', 300],
  ['Asia/Tokyo', -540],
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

/** A small deterministic generator (LCG), seeded per event. */
function rng(seed: number): () => number {
  let s = (seed * 2654435761) >>> 0;
  return () => {
    s = (s * 1664525 + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

const hex = (rand: () => number, n: number) => {
  let out = '';
  for (let i = 0; i < n; i++) out += Math.floor(rand() * 16).toString(16);
  return out;
};
const r1 = (v: number) => Math.round(v * 10) / 10;

/** A public-looking IPv4 address, distinct for every n below 2^24. */
function ipOf(n: number): string {
  const h = (Math.imul(n, 2654435761) >>> 8) & 0xffffff;
  return `${23 + (n % 7) * 20}.${h >> 16}.${(h >> 8) & 255}.${h & 255}`;
}

function context(n: number, rand: () => number, userAgent: string): Record<string, unknown> {
  const eventType = EVENT_TYPES[n % EVENT_TYPES.length]!;
  const context: Record<string, unknown> = {
    event_type: eventType,
    account_id: `acct_${n}`,
    email: `user${n}@mail${n % 97}.example.com`,
    ip_address: ipOf(n),
    user_agent: userAgent,
    request_url: `https://shop.example/${eventType}`,
  };
  if (eventType === 'login') context.login_succeeded = rand() > 0.2;
  if (eventType === 'checkout') {
    context.order_amount = Math.round(rand() * 50000) / 100;
    context.payment_hash = `pm_${n.toString(36)}_${hex(rand, 12)}`;
  }
  if (eventType === 'promo_claim') context.promo_code = 'WELCOME10';
  return context;
}

/** Event n without evidence. */
export function bareBody(n: number): string {
  const rand = rng(n);
  return JSON.stringify({ context: context(n, rand, USER_AGENTS[n % USER_AGENTS.length]!) });
}

/** ~200 mouse samples along curved strokes between form fields, 8–24 ms apart, with jitter. */
function mousePath(rand: () => number, t0: number): number[][] {
  const out: number[][] = [];
  let t = t0;
  let x = 200 + rand() * 800;
  let y = 150 + rand() * 500;
  while (out.length < 200) {
    const tx = 200 + rand() * 800;
    const ty = 150 + rand() * 500;
    const cx = (x + tx) / 2 + (rand() - 0.5) * 200;
    const cy = (y + ty) / 2 + (rand() - 0.5) * 200;
    const steps = 20 + Math.floor(rand() * 30);
    for (let k = 1; k <= steps && out.length < 200; k++) {
      const u = k / steps;
      const e = u * u * (3 - 2 * u);
      const px = (1 - e) * (1 - e) * x + 2 * (1 - e) * e * cx + e * e * tx + (rand() - 0.5) * 2;
      const py = (1 - e) * (1 - e) * y + 2 * (1 - e) * e * cy + e * e * ty + (rand() - 0.5) * 2;
      t += 8 + rand() * 16;
      out.push([r1(t), r1(px), r1(py)]);
    }
    t += 150 + rand() * 600;
    x = tx;
    y = ty;
  }
  return out;
}

/** Event n with browser evidence; `withKey` adds an idempotency_key. */
export function evidenceBody(n: number, withKey: boolean): string {
  const rand = rng(n);
  const d = n % USER_AGENTS.length;
  const [timezone, offset] = ZONES[n % ZONES.length]!;
  const fingerprint = {
    v: 1,
    user_agent: USER_AGENTS[d],
    platform: PLATFORMS[d],
    vendor: d === 1 ? 'Apple Computer, Inc.' : 'Google Inc.',
    language: 'en-US',
    languages: ['en-US', 'en'],
    timezone,
    timezone_offset: offset,
    screen: {
      width: 1920,
      height: 1080,
      avail_width: 1920,
      avail_height: 1040,
      color_depth: 24,
      pixel_ratio: 1,
    },
    hardware_concurrency: [4, 8, 12][n % 3],
    device_memory: 8,
    max_touch_points: 0,
    canvas_hash: hex(rand, 32),
    webgl: {
      vendor: 'WebKit',
      renderer: 'WebKit WebGL',
      unmasked_vendor: 'Google Inc.',
      unmasked_renderer: RENDERERS[d],
      version: 'WebGL 1.0 (OpenGL ES 2.0 Chromium)',
      hash: hex(rand, 32),
    },
    audio_hash: hex(rand, 16),
    math_hash: hex(rand, 16),
    fonts: FONTS.slice(0, 4 + (n % 5)),
    fonts_hash: hex(rand, 16),
    plugins_count: 5,
    mime_types_count: 2,
    pdf_viewer_enabled: true,
    cookies_enabled: true,
    local_storage: true,
    session_storage: true,
    indexed_db: true,
    color_gamut: 'srgb',
  };
  const t0 = 400 + rand() * 800;
  const mouse = mousePath(rand, t0);
  const end = mouse[mouse.length - 1]![0]!;
  const keys = Array.from({ length: 24 }, (_, k) => [
    r1(end * 0.3 + k * (110 + rand() * 90)),
    r1(60 + rand() * 60),
  ]);
  const behavior = {
    v: 1,
    time_to_submit_ms: Math.round(end + 400),
    active_ms: Math.round(end),
    mouse_moves: 640,
    clicks: 4,
    key_presses: 24,
    scrolls: 6,
    focus_count: 3,
    blur_count: 2,
    mouse,
    click_samples: Array.from({ length: 4 }, (_, k) => {
      const p = mouse[40 + k * 50]!;
      return [r1(p[0]! + 30), p[1], p[2], 0];
    }),
    key_samples: keys,
    scroll_samples: Array.from({ length: 6 }, (_, k) => [r1(t0 + k * 300), r1(k * 120)]),
  };
  const environment = {
    v: 1,
    sdk_version: '1.0.0',
    timestamp: Date.now(),
    nonce: `nonce-${n}-${hex(rand, 8)}`,
    webdriver: false,
    webdriver_defined: 'prototype',
    headless_markers: [],
    automation_artifacts: [],
    cdp: false,
    tampered_functions: [],
    worker: {
      user_agent: USER_AGENTS[d],
      platform: PLATFORMS[d],
      languages: ['en-US', 'en'],
      hardware_concurrency: fingerprint.hardware_concurrency,
      timezone,
      webgl_renderer: RENDERERS[d],
    },
    window: {
      inner_width: 1920,
      inner_height: 947,
      outer_width: 1920,
      outer_height: 1040,
      screen_x: 0,
      screen_y: 0,
    },
    visible: true,
    has_focus: true,
    in_iframe: false,
    uptime_ms: r1(end + 450),
  };
  const body: Record<string, unknown> = {
    context: context(n, rand, USER_AGENTS[d]!),
    fingerprint,
    behavior,
    environment,
  };
  if (withKey) body.idempotency_key = `bench-${n}`;
  return JSON.stringify(body);
}

/** The benches' two scenarios: bare bodies, and evidence bodies with every second one keyed. */
export type Scenario = 'bare' | 'evidence';
export const SCENARIO_BODIES: Record<Scenario, (n: number) => string> = {
  bare: bareBody,
  evidence: (n) => evidenceBody(n, n % 2 === 0),
};

/** The warm-up's mix: every fourth body an evidence body (every eighth keyed), the rest bare. */
export const warmBody = (n: number): string => (n % 4 === 0 ? evidenceBody(n, n % 8 === 0) : bareBody(n));
