import type { Box } from '../../e2e/support/human-input.ts';
import type { Layout, Rect } from './shop.ts';

/** The page's rectangles in screen pixels, from the layout the page reported. */
export function screenLayout(l: Layout) {
  const left = l.screenX + (l.outerWidth - l.innerWidth) / 2;
  const top = l.screenY + l.outerHeight - l.innerHeight;
  const box = (r: Rect): Box => ({ x: r.x + left, y: r.y + top, width: r.width, height: r.height });
  return {
    content: { x: left, y: top, width: l.innerWidth, height: l.innerHeight },
    email: box(l.email),
    password: box(l.password),
    submit: box(l.submit),
  };
}
export type ScreenLayout = ReturnType<typeof screenLayout>;
