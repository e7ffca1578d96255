import type { FingerprintEvidence } from '../types.ts';
import { hashText } from '../util/hash.ts';
import { defined, safe } from '../util/safe.ts';
import type { MakeCanvas } from './render.ts';

type WebglEvidence = NonNullable<FingerprintEvidence['webgl']>;
type GL = WebGLRenderingContext;

const VERTEX = 'attribute vec2 p;varying vec2 v;void main(){v=p;gl_Position=vec4(p,0.,1.);}';
const FRAGMENT =
  'precision mediump float;varying vec2 v;void main(){gl_FragColor=vec4(sin(v.x*9.1)*.5+.5,v.y*v.x,fract(v.y*3.7),1.);}';

/** Draws a shaded triangle and hashes the pixels: GPU, driver and rasteriser differences show. */
function renderHash(gl: GL): string | undefined {
  const program = gl.createProgram();
  if (!program) return undefined;
  for (const [type, source] of [
    [gl.VERTEX_SHADER, VERTEX],
    [gl.FRAGMENT_SHADER, FRAGMENT],
  ] as const) {
    const shader = gl.createShader(type);
    if (!shader) return undefined;
    gl.shaderSource(shader, source);
    gl.compileShader(shader);
    gl.attachShader(program, shader);
  }
  gl.linkProgram(program);
  gl.useProgram(program);
  gl.bindBuffer(gl.ARRAY_BUFFER, gl.createBuffer());
  gl.bufferData(gl.ARRAY_BUFFER, new Float32Array([-0.9, -0.8, 0.85, -0.7, 0.1, 0.95]), gl.STATIC_DRAW);
  const loc = gl.getAttribLocation(program, 'p');
  gl.enableVertexAttribArray(loc);
  gl.vertexAttribPointer(loc, 2, gl.FLOAT, false, 0, 0);
  gl.clearColor(0.1, 0.2, 0.3, 1);
  gl.clear(gl.COLOR_BUFFER_BIT);
  gl.drawArrays(gl.TRIANGLES, 0, 3);
  const pixels = new Uint8Array(64 * 64 * 4);
  gl.readPixels(0, 0, 64, 64, gl.RGBA, gl.UNSIGNED_BYTE, pixels);
  let text = '';
  for (let i = 0; i < pixels.length; i += 7) text += String.fromCharCode(pixels[i]!);
  return hashText(text);
}

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

export function webglEvidence(make: MakeCanvas): WebglEvidence | undefined {
  const gl = make(64, 64).getContext('webgl', { preserveDrawingBuffer: true }) as GL | null;
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
  out.hash = hashText(`${params.join('|')}#${extensions}#${safe(() => renderHash(gl)) ?? ''}`);
  safe(() => gl.getExtension('WEBGL_lose_context')?.loseContext());
  return out;
}
