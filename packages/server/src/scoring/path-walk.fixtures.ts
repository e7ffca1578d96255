/**
 * Mouse samples [t, x, y] for the aiming tests: `start` as given, then one sample per step
 * [dt, dx, dy] from the last of them.
 */
export function walkFrom(start: number[][], steps: number[][]): number[][] {
  const out = start.map((s) => [...s]);
  let [t, x, y] = out[out.length - 1]!;
  for (const [dt, dx, dy] of steps) {
    t! += dt!;
    x! += dx!;
    y! += dy!;
    out.push([t!, x!, y!]);
  }
  return out;
}

/** `n` steps of (dx, dy) every `dt` ms. */
export const stepsOf = (n: number, dt: number, dx: number, dy = 0) =>
  Array.from({ length: n }, () => [dt, dx, dy]);
