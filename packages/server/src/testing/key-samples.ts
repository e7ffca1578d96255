/** Key samples as the SDK sends them: [t_down, hold] in ms, rounded to its 0.1 ms. */
export type KeySample = number[];

export const r1 = (v: number) => Math.round(v * 10) / 10;

/** The key samples an xdotool script (keydown / keyup / sleep lines, e.g. HumanScript's) leaves. */
export function scriptKeys(lines: readonly string[]): KeySample[] {
  const down = new Map<string, number>();
  const keys: KeySample[] = [];
  let t = 0;
  for (const line of lines) {
    const [cmd, arg] = line.split(' ');
    if (cmd === 'sleep') t += Number(arg) * 1000;
    else if (cmd === 'keydown') down.set(arg!, t);
    else if (cmd === 'keyup' && down.has(arg!)) {
      keys.push([r1(down.get(arg!)!), r1(t - down.get(arg!)!)]);
      down.delete(arg!);
    }
  }
  return keys.sort((a, b) => a[0]! - b[0]!);
}
