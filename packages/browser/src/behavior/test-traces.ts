// Tests only: the person's traces the SDK's behaviour tests replay.
import { readdirSync, readFileSync } from 'node:fs';

/** DELBOT-Mouse traces of one person (fixtures/mouse-dev, MIT): raw browser moves [t, x, y] per trace. */
const HUMAN_DIR = new URL('../../../../fixtures/mouse-dev/circles_human_pc1/', import.meta.url);

export function humanTraces(): Array<Array<[number, number, number]>> {
  return readdirSync(HUMAN_DIR)
    .filter((f) => f.endsWith('.txt'))
    .sort()
    .map((f) =>
      readFileSync(new URL(f, HUMAN_DIR), 'utf8')
        .trim()
        .split('\n')
        .slice(1)
        .map((l) => l.trim().split(','))
        .filter((p) => p[1] === 'Move')
        .map((p) => [Number(p[0]), Number(p[2]), Number(p[3])] as [number, number, number]),
    );
}
