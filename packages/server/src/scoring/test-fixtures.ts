/** Test helpers for the engine (imported by *.test.ts only). */
import { randomUUID } from 'node:crypto';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { AppContext } from '../context.ts';
import { decisionData, decisionRow } from '../pipeline/record.ts';
import type { SitesTable } from '../storage/schema.ts';
import { mulberry32 } from '../testing/rng.ts';
import { behaviorMetrics } from './behavior-metrics.ts';
import type { EngineResult, ScoringInput, ScoringRequest } from './engine-types.ts';
import type { Features } from './features.ts';
import type { HistoryCounts } from './history.ts';

export const HUMAN_UA =
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Safari/537.36';

export function testSite(id = 'site_test', settings = '{}'): SitesTable {
  const now = Date.now();
  return {
    id,
    workspace_id: 'ws_test',
    name: 'Test',
    site_key: `pk_${id}`,
    secret_key_hash: 'x',
    allowed_origins: '[]',
    settings,
    keys_rotated_at: null,
    created_at: now,
    updated_at: now,
  };
}

/** Insert the workspace and site rows (needed before decisions are inserted). */
export async function insertSite(ctx: AppContext, site: SitesTable): Promise<void> {
  const db = ctx.database.db;
  const existing = await db
    .selectFrom('workspaces')
    .select('id')
    .where('id', '=', site.workspace_id)
    .executeTakeFirst();
  if (!existing) {
    await db
      .insertInto('workspaces')
      .values({ id: site.workspace_id, name: 'W', plan: 'pro', demo: 0, created_at: 0, updated_at: 0 })
      .execute();
  }
  await db.insertInto('sites').values(site).execute();
}

export const FINGERPRINT = {
  v: 1,
  user_agent: HUMAN_UA,
  platform: 'Win32',
  languages: ['en-US', 'en'],
  timezone: 'Europe/Berlin',
  screen: { width: 1920, height: 1080, color_depth: 24, pixel_ratio: 1 },
  hardware_concurrency: 8,
  device_memory: 8,
  max_touch_points: 0,
  canvas_hash: 'c0ffee1234',
  webgl: { unmasked_vendor: 'Google Inc. (NVIDIA)', unmasked_renderer: 'ANGLE (NVIDIA GeForce RTX 3060)' },
  audio_hash: '124.04347527516074',
  fonts: ['Arial', 'Calibri', 'Segoe UI'],
};

export function makeInput(
  ctx: AppContext,
  request: Omit<Partial<ScoringRequest>, 'context'> & { context?: Partial<ScoringRequest['context']> },
  options: Partial<Omit<ScoringInput, 'request'>> = {},
): ScoringInput {
  const context: ScoringRequest['context'] = {
    event_type: 'login',
    account_id: 'acct_1',
    ...request.context,
  };
  return {
    site: options.site ?? testSite(),
    workspace: options.workspace ?? { id: 'ws_test', plan: 'pro', demo: false },
    surface: options.surface ?? 'server',
    request: { ...request, context },
    ip: options.ip ?? '203.0.113.7',
    userAgent: options.userAgent ?? HUMAN_UA,
    decisionId: options.decisionId ?? randomUUID(),
    now: options.now ?? ctx.now(),
  };
}

/** Record a decision exactly the way the routes do (for restart/rebuild tests). */
export async function recordDecision(
  ctx: AppContext,
  input: ScoringInput,
  result: EngineResult,
): Promise<void> {
  const data = decisionData(input.decisionId, result, 0, input.now);
  await ctx.services.decisions.record(decisionRow(input, result, data));
}

export function rules(result: EngineResult): string[] {
  return result.signals.map((s) => s.rule);
}

/** Neutral features of a clean server-side login; override what a test needs. */
export function baseFeatures(
  overrides: Partial<Features> = {},
  history: Partial<HistoryCounts> = {},
): Features {
  return {
    event_type: 'login',
    now_ms: 1_700_000_000_000,
    surface: 'server',
    has_fingerprint: true,
    has_behavior: false,
    has_environment: false,
    device_id: 'dev_aaaaaaaaaaaaaaaaaaaaaaaa',
    device_source: 'token',
    token: 'valid',
    token_device_mismatch: false,
    token_id: '',
    stable_attributes: 10,
    user_agent: HUMAN_UA,
    ua_is_bot: false,
    ua_headless: false,
    ua_js_mismatch: false,
    ua_browser: true,
    ua_mobile: false,
    ua_os: 'windows',
    ua_inconsistencies: [],
    ua_chromium: true,
    worker_headless: false,
    software_renderer: 'none',
    webdriver: false,
    webdriver_defined: 'prototype',
    automation_artifacts: [],
    headless_markers: [],
    cdp: false,
    tampered_functions: [],
    worker_mismatch: [],
    email_domain: '',
    email_disposable: false,
    email_plus_alias: false,
    has_payment: false,
    order_amount: null,
    login_succeeded: null,
    behavior: behaviorMetrics(undefined),
    clock_skew_ms: null,
    nonce: 'absent',
    nonce_value: '',
    pow: 'absent',
    history: {
      ip_1m: 1,
      ip_1h: 1,
      account_1m: 1,
      account_1h: 1,
      device_1m: 1,
      device_1h: 1,
      failed_logins_account_1h: 0,
      failed_logins_ip_1h: 0,
      accounts_per_device_24h: 1,
      accounts_per_ip_24h: 1,
      payments_per_account_24h: 0,
      payments_per_device_24h: 0,
      accounts_per_email_24h: 0,
      device_first_seen: 1_700_000_000_000,
      device_events_30d: 1,
      device_risky_events_30d: 0,
      token_events_1h: 0,
      token_accounts_24h: 0,
      token_recent_risk: 0,
      device_recent_risk: 0,
      failed_logins_subnet_1h: 0,
      failed_logins_subnet_24h: 0,
      failed_accounts_subnet_24h: 0,
      logins_subnet_24h: 0,
      failed_login_uas_ip_24h: 0,
      payments_per_ip_24h: 0,
      payments_per_subnet_24h: 0,
      small_payments_account_24h: 0,
      small_payments_device_24h: 0,
      small_payments_subnet_24h: 0,
      site_uses_sdk: false,
      ...history,
    },
    subnet: '203.0.113.0/24',
    ip: { asn: 64496, org: 'Example Broadband', country: null, hosting: false },
    timezone: '',
    identity: null,
    ...overrides,
  };
}

/** DELBOT-Mouse traces (tuning data in the repository's fixtures/mouse-dev, MIT) as behaviour evidence. */
export const MOUSE_DIR = fileURLToPath(new URL('../../../../fixtures/mouse-dev', import.meta.url));

export function loadTrace(file: string): { mouse: Array<[number, number, number]>; clicks: number } {
  const lines = readFileSync(file, 'utf8').trim().split('\n').slice(1);
  const mouse: Array<[number, number, number]> = [];
  let clicks = 0;
  let t0: number | undefined;
  for (const line of lines) {
    const [t, kind, x, y] = line.split(',');
    t0 ??= Number(t);
    if (kind === 'Move') mouse.push([Number(t) - t0, Number(x), Number(y)]);
    else if (kind === 'Pressed') clicks++;
  }
  return { mouse, clicks };
}

export function traceFiles(dir: string): string[] {
  const full = path.join(MOUSE_DIR, dir);
  if (!existsSync(full)) throw new Error(`mouse traces missing: ${full}`);
  return readdirSync(full)
    .filter((f) => f.endsWith('.txt'))
    .sort()
    .map((f) => path.join(full, f));
}

/** Rounded to 0.1 (what the SDK sends). */
const tenth = (v: number) => Math.round(v * 10) / 10;

/** Human key presses: varied dwell and gaps. */
export function humanKeys(seed: number, n: number, t0: number): number[][] {
  const rand = mulberry32(seed);
  const keys: number[][] = [];
  let t = t0;
  for (let i = 0; i < n; i++) {
    keys.push([tenth(t), tenth(60 + rand() * 70)]);
    t += 90 + rand() * 220 + (i % 5 === 4 ? 400 : 0);
  }
  return keys;
}

/** Several DELBOT human traces one after another (5 s apart), as one page's mouse samples. */
export function humanSession(files: number, offset = 0): number[][] {
  const out: number[][] = [];
  for (const [k, file] of traceFiles('circles_human_pc1')
    .slice(offset, offset + files)
    .entries())
    for (const [t, x, y] of loadTrace(file).mouse) out.push([t + 5000 * (k + 1), x, y]);
  return out;
}

/**
 * A person's login page: four DELBOT human traces as the mouse, human keys (24), submitted after
 * 30 s, scored as a desktop browser login; `evidence` adds to or replaces the behaviour evidence.
 */
export function humanPageFeatures(
  evidence: Record<string, unknown> = {},
  over: Record<string, unknown> = {},
) {
  const mouse = humanSession(4);
  return baseFeatures({
    surface: 'browser',
    event_type: 'login',
    behavior: behaviorMetrics({
      mouse,
      mouse_moves: mouse.length,
      key_samples: humanKeys(5, 24, 2000),
      key_presses: 24,
      time_to_submit_ms: 30000,
      ...evidence,
    }),
    ...over,
  });
}
