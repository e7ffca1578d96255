import { hashBytes } from '../util/hash.ts';

/** A canvas on the main thread (HTMLCanvasElement) or in a worker (OffscreenCanvas). */
export type AnyCanvas = HTMLCanvasElement | OffscreenCanvas;
export type MakeCanvas = (width: number, height: number) => AnyCanvas;

type Ctx2D = CanvasRenderingContext2D | OffscreenCanvasRenderingContext2D;

export function context2d(canvas: AnyCanvas): Ctx2D | null {
  return canvas.getContext('2d') as Ctx2D | null;
}

/** Hash of a 2D render: text in two fonts, an emoji, blending and curves (pixels, not a data URL). */
export function canvasHash(make: MakeCanvas): string | undefined {
  const ctx = context2d(make(240, 60));
  if (!ctx) return undefined;
  ctx.textBaseline = 'alphabetic';
  ctx.fillStyle = '#f60';
  ctx.fillRect(100, 1, 62, 20);
  ctx.fillStyle = '#069';
  ctx.font = '11pt "Times New Roman"';
  ctx.fillText('Warden fp, \u{1F603} <canvas> 1.0', 2, 15);
  ctx.fillStyle = 'rgba(102, 204, 0, 0.2)';
  ctx.font = '18pt Arial';
  ctx.fillText('Cwm fjordbank glyphs vext quiz', 4, 45);
  ctx.globalCompositeOperation = 'multiply';
  const circles: Array<[string, number]> = [
    ['#f2f', 40],
    ['#2ff', 80],
    ['#ff2', 60],
  ];
  for (const circle of circles) {
    ctx.fillStyle = circle[0];
    ctx.beginPath();
    ctx.arc(circle[1], 40, 40, 0, Math.PI * 2, true);
    ctx.closePath();
    ctx.fill();
  }
  return hashBytes(ctx.getImageData(0, 0, 240, 60).data);
}

export const documentCanvas: MakeCanvas = (width, height) => {
  const c = document.createElement('canvas');
  c.width = width;
  c.height = height;
  return c;
};
