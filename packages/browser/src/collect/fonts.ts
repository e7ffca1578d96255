import { context2d, type MakeCanvas } from './render.ts';

/**
 * Two fallbacks suffice: a missing font renders as the fallback, so it matches both; an installed
 * one cannot match both unless monospace and serif had the same metrics.
 */
const BASES = ['monospace', 'serif'] as const;
const FONTS = [
  'Arial',
  'Arial Black',
  'Calibri',
  'Cambria',
  'Comic Sans MS',
  'Consolas',
  'Courier New',
  'DejaVu Sans',
  'DejaVu Serif',
  'Droid Sans',
  'Georgia',
  'Helvetica',
  'Helvetica Neue',
  'Impact',
  'Liberation Mono',
  'Liberation Sans',
  'Lucida Console',
  'Lucida Grande',
  'Menlo',
  'Monaco',
  'Noto Color Emoji',
  'Noto Sans',
  'Palatino',
  'Roboto',
  'Segoe UI',
  'SF Pro Text',
  'Tahoma',
  'Times New Roman',
  'Trebuchet MS',
  'Ubuntu',
  'Verdana',
  'Wingdings',
];
/** Latin only: a CJK character sends every measurement through the fallback-font search. */
const SAMPLE = 'mmmmmmmmmmlli10OQ@#\u00e9';

/**
 * Installed fonts, detected by measuring text against the generic fallbacks (no DOM layout). The
 * cost is one platform font lookup per family name (on Linux a round trip to the browser process).
 */
export function detectFonts(make: MakeCanvas): string[] | undefined {
  const ctx = context2d(make(8, 8));
  if (!ctx) return undefined;
  const width = (font: string) => {
    ctx.font = `72px ${font}`;
    return ctx.measureText(SAMPLE).width;
  };
  const base = BASES.map((b) => width(b));
  return FONTS.filter((font) => BASES.some((b, i) => width(`"${font}", ${b}`) !== base[i]));
}
