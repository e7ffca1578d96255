import { type MakeCanvas, renderEvidence } from '../collect/render.ts';
import type { WorkerEvidence } from '../types.ts';
import { defined, safe } from '../util/safe.ts';
import type { ProbeResult } from './protocol.ts';

const offscreen: MakeCanvas = (width, height) => new OffscreenCanvas(width, height);

/**
 * Values as a worker sees them (spoofing tools often patch only the main thread), and the
 * rendering evidence, computed here so that it does not block the page.
 */
export function workerProbe(): ProbeResult {
  const n = self.navigator;
  const render = typeof OffscreenCanvas === 'function' ? renderEvidence(offscreen) : {};
  const worker = defined<WorkerEvidence>({
    user_agent: n.userAgent.slice(0, 512),
    platform: safe(() => n.platform.slice(0, 64)),
    languages: safe(() => Array.from(n.languages).slice(0, 16)),
    hardware_concurrency: n.hardwareConcurrency,
    timezone: render.timezone ?? safe(() => Intl.DateTimeFormat().resolvedOptions().timeZone.slice(0, 64)),
    webgl_renderer: render.webgl?.unmasked_renderer ?? render.webgl?.renderer,
  });
  return { worker, render };
}
