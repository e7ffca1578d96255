import { timeZone } from '../collect/device.ts';
import { webglStrings } from '../collect/webgl.ts';
import type { WorkerEvidence } from '../types.ts';
import { defined, safe } from '../util/safe.ts';
import type { ProbeResult } from './protocol.ts';

/** The WebGL renderer as a worker sees it: a context and two strings, nothing is drawn. */
function workerRenderer(): string | undefined {
  if (typeof OffscreenCanvas !== 'function') return undefined;
  const gl = new OffscreenCanvas(1, 1).getContext('webgl') as WebGLRenderingContext | null;
  if (!gl) return undefined;
  const s = webglStrings(gl);
  safe(() => gl.getExtension('WEBGL_lose_context')?.loseContext());
  return s.unmasked_renderer ?? s.renderer;
}

/**
 * Values as a worker sees them: spoofing tools often patch only the page, so the service compares
 * them with the page's (`worker_mismatch`). Cheap; the rendering evidence is collected on the page.
 */
export function workerProbe(): ProbeResult {
  const n = self.navigator;
  const worker = defined<WorkerEvidence>({
    user_agent: n.userAgent.slice(0, 512),
    platform: safe(() => n.platform.slice(0, 64)),
    languages: safe(() => Array.from(n.languages).slice(0, 16)),
    hardware_concurrency: n.hardwareConcurrency,
    timezone: timeZone(),
    webgl_renderer: safe(workerRenderer),
  });
  return { worker };
}
