import type { EnvironmentEvidence, FingerprintEvidence, WorkerEvidence } from '../types.ts';
import { randomHex } from '../util/hash.ts';
import { safe, timeBox } from '../util/safe.ts';
import type { ProbeResult } from '../worker/protocol.ts';
import { audioHash } from './audio.ts';
import { automationEvidence, permissionMarkers } from './automation.ts';
import { clientHints, deviceAttributes } from './device.ts';
import { documentCanvas, type RenderEvidence, renderEvidence } from './render.ts';

export const SDK_VERSION = '1.0.0';

/** How long the fingerprint waits for the worker's render evidence before rendering on the page. */
const WORKER_RENDER_WAIT_MS = 3000;

/**
 * Stable device evidence. The page itself only reads navigator/screen attributes (a few ms);
 * canvas, WebGL and font rendering run in the worker (OffscreenCanvas), the audio render and
 * client hints are asynchronous and time-boxed. Without a worker the rendering falls back to
 * the page. `main_thread_ms` records the time the page was blocked, `collect_ms` the wall time.
 */
export async function collectFingerprint(
  probe: Promise<ProbeResult | undefined>,
  budgetMs = 45,
): Promise<FingerprintEvidence> {
  const started = performance.now();
  const audio = timeBox(audioHash, Math.max(budgetMs, 100));
  const hints = clientHints(Math.max(budgetMs, 100));
  const fp = deviceAttributes();
  let blocked = performance.now() - started;
  let render: RenderEvidence | undefined = (await timeBox(probe, WORKER_RENDER_WAIT_MS))?.render;
  if (!render?.canvas_hash) {
    const t = performance.now();
    render = safe(() => renderEvidence(documentCanvas));
    blocked += performance.now() - t;
  }
  const [a, h] = await Promise.all([audio, hints]);
  const out: FingerprintEvidence = { ...fp };
  if (render) {
    const { render_ms: _unused, ...rest } = render;
    Object.assign(out, rest);
  }
  if (a) out.audio_hash = a;
  if (h) out.client_hints = h;
  const extra = out as Record<string, unknown>;
  extra.collect_ms = Math.round(performance.now() - started);
  extra.main_thread_ms = Math.round(blocked);
  return out;
}

/** Per-submission environment: automation tells, window state, freshness (timestamp + nonce). */
export async function collectEnvironment(
  worker: Promise<WorkerEvidence | undefined> | undefined,
  budgetMs = 25,
): Promise<EnvironmentEvidence> {
  const started = performance.now();
  const permissions = permissionMarkers(budgetMs);
  const auto = automationEvidence();
  const env: EnvironmentEvidence = {
    v: 1,
    sdk_version: SDK_VERSION,
    ...auto,
    window: {
      inner_width: Math.max(0, Math.round(window.innerWidth)),
      inner_height: Math.max(0, Math.round(window.innerHeight)),
      outer_width: Math.max(0, Math.round(window.outerWidth)),
      outer_height: Math.max(0, Math.round(window.outerHeight)),
      screen_x: Math.round(window.screenX),
      screen_y: Math.round(window.screenY),
    },
    visible: document.visibilityState === 'visible',
    has_focus: safe(() => document.hasFocus()) ?? false,
    in_iframe: safe(() => window.self !== window.top) ?? true,
  };
  const blocked = performance.now() - started;
  const [extra, fromWorker] = await Promise.all([
    timeBox(permissions, budgetMs),
    worker ? timeBox(worker, budgetMs) : undefined,
  ]);
  if (extra?.length) env.headless_markers = [...(env.headless_markers ?? []), ...extra];
  if (fromWorker) env.worker = fromWorker;
  env.uptime_ms = Math.round(performance.now());
  env.timestamp = Date.now();
  env.nonce = randomHex(16);
  const rec = env as Record<string, unknown>;
  rec.collect_ms = Math.round(performance.now() - started);
  rec.main_thread_ms = Math.round(blocked);
  return env;
}
