import type { FingerprintEvidence } from '../types.ts';
import { hashBytes, hashText } from '../util/hash.ts';
import { defined, safe, sleep } from '../util/safe.ts';
import type { MakeCanvas } from './render.ts';

type WebglEvidence = NonNullable<FingerprintEvidence['webgl']>;
type GL = WebGLRenderingContext | WebGL2RenderingContext;

/** Side of the rendered square: enough pixels for rasteriser and precision differences to show. */
const SIZE = 32;
/** How long to wait for the GPU to finish the render before leaving its hash out. */
const RENDER_WAIT_MS = 1500;
const POLL_MS = 2;

/**
 * Software rasterisers: their pixels are a function of the browser build (the same on every
 * machine that runs it), not of the device, so the shaded render is not drawn on them. On the
 * 2-core CI machine SwiftShader's pipeline compile for that one draw took 25–110 ms of CPU.
 */
const SOFTWARE = /SwiftShader|llvmpipe|softpipe|Software Rasterizer|Basic Render Driver|Software Renderer/i;

const VERTEX = 'attribute vec2 p;varying vec2 v;void main(){v=p;gl_Position=vec4(p,0.,1.);}';
const FRAGMENT =
  'precision mediump float;varying vec2 v;void main(){gl_FragColor=vec4(sin(v.x*9.1)*.5+.5,v.y*v.x,fract(v.y*3.7),1.);}';

/** Reads vendor/renderer strings from any WebGL context (also used inside the worker). */
export function webglStrings(gl: GL): WebglEvidence {
  const info = gl.getExtension('WEBGL_debug_renderer_info');
  const str = (v: unknown) => (typeof v === 'string' ? v.slice(0, 256) : undefined);
  return defined<WebglEvidence>({
    vendor: str(gl.getParameter(gl.VENDOR)),
    renderer: str(gl.getParameter(gl.RENDERER)),
    version: str(gl.getParameter(gl.VERSION))?.slice(0, 128),
    unmasked_vendor: info ? str(gl.getParameter(info.UNMASKED_VENDOR_WEBGL)) : undefined,
    unmasked_renderer: info ? str(gl.getParameter(info.UNMASKED_RENDERER_WEBGL)) : undefined,
  });
}

/** Queues one shaded triangle (one program, one draw call); returns false when it cannot. */
function draw(gl: GL): boolean {
  const program = gl.createProgram();
  if (!program) return false;
  for (const [type, source] of [
    [gl.VERTEX_SHADER, VERTEX],
    [gl.FRAGMENT_SHADER, FRAGMENT],
  ] as const) {
    const shader = gl.createShader(type);
    if (!shader) return false;
    gl.shaderSource(shader, source);
    gl.compileShader(shader);
    gl.attachShader(program, shader);
  }
  // No status queries: each would wait for the GPU process. A failed link shows in the pixels.
  gl.bindAttribLocation(program, 0, 'p');
  gl.linkProgram(program);
  gl.useProgram(program);
  gl.bindBuffer(gl.ARRAY_BUFFER, gl.createBuffer());
  gl.bufferData(gl.ARRAY_BUFFER, new Float32Array([-0.9, -0.8, 0.85, -0.7, 0.1, 0.95]), gl.STATIC_DRAW);
  gl.enableVertexAttribArray(0);
  gl.vertexAttribPointer(0, 2, gl.FLOAT, false, 0, 0);
  gl.viewport(0, 0, SIZE, SIZE);
  gl.clearColor(0.1, 0.2, 0.3, 1);
  gl.clear(gl.COLOR_BUFFER_BIT);
  gl.drawArrays(gl.TRIANGLES, 0, 3);
  return true;
}

const isGl2 = (gl: GL): gl is WebGL2RenderingContext =>
  typeof WebGL2RenderingContext === 'function' && gl instanceof WebGL2RenderingContext;

/**
 * Reads the pixels back without blocking the page: WebGL 2 copies them into a pixel-pack buffer
 * behind a fence and polls the fence (the shader compile and draw run in the GPU process
 * meanwhile); WebGL 1 reads them synchronously in a later task.
 */
async function readBack(gl: GL, deadline: number): Promise<Uint8Array | undefined> {
  const pixels = new Uint8Array(SIZE * SIZE * 4);
  if (!isGl2(gl)) {
    await sleep(0);
    gl.readPixels(0, 0, SIZE, SIZE, gl.RGBA, gl.UNSIGNED_BYTE, pixels);
    return pixels;
  }
  const pbo = gl.createBuffer();
  gl.bindBuffer(gl.PIXEL_PACK_BUFFER, pbo);
  gl.bufferData(gl.PIXEL_PACK_BUFFER, pixels.byteLength, gl.STREAM_READ);
  gl.readPixels(0, 0, SIZE, SIZE, gl.RGBA, gl.UNSIGNED_BYTE, 0);
  const sync = gl.fenceSync(gl.SYNC_GPU_COMMANDS_COMPLETE, 0);
  if (!sync) return undefined;
  gl.flush();
  try {
    for (;;) {
      const status = gl.clientWaitSync(sync, 0, 0);
      if (status === gl.ALREADY_SIGNALED || status === gl.CONDITION_SATISFIED) break;
      if (status === gl.WAIT_FAILED || performance.now() > deadline) return undefined;
      await sleep(POLL_MS);
    }
    gl.getBufferSubData(gl.PIXEL_PACK_BUFFER, 0, pixels);
    return pixels;
  } finally {
    gl.deleteSync(sync);
  }
}

/**
 * WebGL evidence: vendor/renderer strings, a hash of parameters, extensions and a shaded render.
 * The synchronous part (context creation, queueing the draw) runs now; the promise resolves once
 * the GPU has rendered (or after RENDER_WAIT_MS without the render hash). `undefined` without WebGL.
 */
export function startWebgl(make: MakeCanvas): Promise<WebglEvidence | undefined> | undefined {
  const canvas = make(SIZE, SIZE);
  const attrs = { antialias: false, depth: false, stencil: false };
  const gl =
    (safe(() => canvas.getContext('webgl2', attrs)) as GL | null | undefined) ??
    (make(SIZE, SIZE).getContext('webgl', { ...attrs, preserveDrawingBuffer: true }) as GL | null);
  if (!gl) return undefined;
  const out = webglStrings(gl);
  const params = [
    gl.MAX_TEXTURE_SIZE,
    gl.MAX_RENDERBUFFER_SIZE,
    gl.MAX_VERTEX_ATTRIBS,
    gl.MAX_VARYING_VECTORS,
    gl.MAX_FRAGMENT_UNIFORM_VECTORS,
    gl.ALIASED_LINE_WIDTH_RANGE,
    gl.MAX_VIEWPORT_DIMS,
  ].map((p) => String(safe(() => gl.getParameter(p))));
  const extensions = (gl.getSupportedExtensions() ?? []).join(',');
  const software = SOFTWARE.test(out.unmasked_renderer ?? out.renderer ?? '');
  const drawn = !software && (safe(() => draw(gl)) ?? false);
  const deadline = performance.now() + RENDER_WAIT_MS;
  return (async () => {
    const pixels = drawn ? await readBack(gl, deadline).catch(() => undefined) : undefined;
    const render = software ? 'software' : pixels ? hashBytes(pixels) : '';
    out.hash = hashText(`${params.join('|')}#${extensions}#${render}`);
    // Releasing the context takes a few ms of the page's time: do it after the evidence is in.
    setTimeout(() => safe(() => gl.getExtension('WEBGL_lose_context')?.loseContext()), 0);
    return out;
  })();
}
