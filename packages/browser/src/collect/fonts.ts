import { context2d, type MakeCanvas } from './render.ts';

const BASES = ['monospace', 'sans-serif', 'serif'] as const;
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
const SAMPLE = 'mmmmmmmmmmlli10OQ@#\u00e9\u4e2d';

/** Installed fonts, detected by measuring text against the generic fallbacks (no DOM layout). */
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
