import type { EnvironmentEvidence, FingerprintEvidence, WorkerEvidence } from '../types.ts';
import { randomHex } from '../util/hash.ts';
import { type Meter, measured, nextTask, round1, safe, timeBox, timed } from '../util/safe.ts';
import { audioHash } from './audio.ts';
import { automationEvidence, permissionMarkers } from './automation.ts';
import { clientHints, deviceAttributes, timeZone } from './device.ts';
import { detectFonts } from './fonts.ts';
import { canvasHash, documentCanvas } from './render.ts';
import { startWebgl } from './webgl.ts';

export const SDK_VERSION = '1.0.0';

/** The rendering part of the fingerprint: what cannot change while the page is open. */
type RenderEvidence = Pick<FingerprintEvidence, 'canvas_hash' | 'webgl' | 'fonts'>;

/** Computed once per page: a second `Warden.load()` or fingerprint on the same page reuses it. */
let renderOnce: Promise<RenderEvidence> | undefined;

/**
 * WebGL, canvas and fonts on the page, each its own short task. The WebGL context and draw come
 * first so that the GPU process compiles and renders while the page measures canvas and fonts;
 * the pixels are read back asynchronously (see webgl.ts).
 */
async function renderEvidence(meter: Meter): Promise<RenderEvidence> {
  const started = performance.now();
  const webgl = measured(meter, 'webgl_sync', () => startWebgl(documentCanvas));
  await nextTask();
  const canvas = measured(meter, 'canvas', () => canvasHash(documentCanvas));
  await nextTask();
  const fonts = measured(meter, 'fonts', () => detectFonts(documentCanvas));
  const gl = await webgl?.catch(() => undefined);
  meter.timings.webgl = round1(performance.now() - started);
  const out: RenderEvidence = {};
  if (canvas) out.canvas_hash = canvas;
  if (gl) out.webgl = gl;
  if (fonts) out.fonts = fonts;
  return out;
}

/**
 * Stable device evidence, collected on the page. Synchronous collectors (navigator/screen
 * attributes, canvas, fonts, queueing the WebGL draw) run as a few short tasks; the WebGL
 * read-back, the audio render and client hints are asynchronous and time-boxed, and run in
 * parallel with them. Every collector fails soft. `main_thread_ms` records the time the page was
 * blocked, `collect_ms` the wall time; `meter.timings` has each collector's time.
 */
export async function collectFingerprint(meter: Meter, budgetMs = 45): Promise<FingerprintEvidence> {
  const started = performance.now();
  const wait = Math.max(budgetMs, 100);
  const none = Promise.resolve(undefined);
  const audio = timed(meter, 'audio', timeBox(measured(meter, 'audio_sync', audioHash) ?? none, wait));
  const hints = timed(meter, 'client_hints', measured(meter, 'hints_sync', () => clientHints(wait)) ?? none);
  if (renderOnce) meter.timings.render_reused = 1;
  else renderOnce = renderEvidence(meter);
  const render = renderOnce;
  const fp = measured(meter, 'device', deviceAttributes) ?? { v: 1 };
  const tz = measured(meter, 'timezone', timeZone);
  const [r, a, h] = await Promise.all([render, audio, hints]);
  const out: FingerprintEvidence = { ...fp, ...r };
  if (tz) out.timezone = tz;
  if (a) out.audio_hash = a;
  if (h) out.client_hints = h;
  const extra = out as Record<string, unknown>;
  extra.collect_ms = Math.round(performance.now() - started);
  extra.main_thread_ms = Math.round(meter.blocked);
  return out;
}

/**
 * Per-submission environment: automation tells, window state, freshness (timestamp + nonce), and
 * the worker's view, waited for up to `workerWaitMs`.
 */
export async function collectEnvironment(
  worker: Promise<WorkerEvidence | undefined> | undefined,
  workerWaitMs = 25,
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
    worker ? timeBox(worker, Math.max(budgetMs, workerWaitMs)) : undefined,
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
