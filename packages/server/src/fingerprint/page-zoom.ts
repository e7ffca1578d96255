/**
 * Page zoom and device scale from the screen evidence.
 *
 * Measured in chromium: page zoom (Ctrl +, or the zoom preference) multiplies `devicePixelRatio`
 * (110 % → 1.1) and divides `innerWidth` by the zoom, while `screen.width`/`height` and
 * `outerWidth` stay as they were. The operating system's display scale instead changes the pixel
 * ratio and `screen.width`/`height` together, with `outerWidth / innerWidth` at 1. So the zoom is
 * `outerWidth / innerWidth`, taken only when it lands on one of chromium's zoom levels (a side
 * panel or docked tools also narrow the page, by amounts that land on none), and the device's own
 * scale is the pixel ratio divided by it.
 */
const ZOOM_LEVELS = [0.25, 1 / 3, 0.5, 2 / 3, 0.75, 0.8, 0.9, 1, 1.1, 1.25, 1.5, 1.75, 2, 2.5, 3, 4, 5];
/** How far (relative) `outer / inner` may be from a zoom level: window borders add a few pixels. */
const ZOOM_TOLERANCE = 0.02;

/** The page zoom (1 when the widths are missing or name no zoom level). */
export function pageZoom(innerWidth: number | undefined, outerWidth: number | undefined): number {
  if (!innerWidth || !outerWidth || innerWidth <= 0 || outerWidth <= 0) return 1;
  const ratio = outerWidth / innerWidth;
  let best = 1;
  for (const level of ZOOM_LEVELS) if (Math.abs(ratio - level) < Math.abs(ratio - best)) best = level;
  return Math.abs(ratio - best) / best <= ZOOM_TOLERANCE ? best : 1;
}

/** The pixel ratio without the page zoom, to two decimals. */
export function deviceScale(pixelRatio: number, innerWidth?: number, outerWidth?: number): number {
  return Math.round((pixelRatio / pageZoom(innerWidth, outerWidth)) * 100) / 100;
}
