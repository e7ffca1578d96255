/**
 * Math.hypot(dx, dy), bit for bit, without its cost: V8's Math.hypot takes any number of
 * arguments, so every call allocates their absolute values and runs a general loop (~100 ns, the
 * costliest step of the mouse metrics). This is the very same computation for two (V8
 * src/builtins/math.tq MathHypot: scale by the largest, Kahan sum of the squares, square root),
 * so the metrics keep their exact values (hypot.test.ts compares it with Math.hypot).
 */
export function hypot(dx: number, dy: number): number {
  const a = Math.abs(dx);
  const b = Math.abs(dy);
  let max = 0;
  if (a > max) max = a;
  if (b > max) max = b;
  if (max === Number.POSITIVE_INFINITY) return max;
  if (Number.isNaN(dx) || Number.isNaN(dy)) return Number.NaN;
  if (max === 0) return 0;
  const first = a / max;
  const second = b / max;
  // The Kahan compensation after the first square is always 0: the sum is just the two squares.
  return Math.sqrt(first * first + second * second) * max;
}
