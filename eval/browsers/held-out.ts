import fs from 'node:fs';
import path from 'node:path';
import { parseTrace } from '../../e2e/support/human-input.ts';
import type { Setup } from './setups.ts';

/** A recording needs this many moves to be replayed (a piece of a stroke is 18–25 of them). */
export const MIN_REPLAY_MOVES = 8;

/**
 * Setups for recordings given on the command line (`--people`, `--bots`): each directory of
 * DELBOT-format traces (fixtures/mouse-dev/README.md) becomes `person-<dirname>`, replayed like
 * `person-pc1`, or `xdotool-replay-<dirname>`, replayed like `xdotool-replay-pynput`.
 * Throws, naming the directory, when one holds no replayable trace.
 */
export function heldOutSetups(people: readonly string[], bots: readonly string[]): Setup[] {
  const taken = new Set<string>();
  const idFor = (prefix: string, dir: string) => {
    const base = path.basename(path.resolve(dir)).replace(/[^A-Za-z0-9_.-]+/g, '_') || 'traces';
    let id = `${prefix}-${base}`;
    for (let n = 2; taken.has(id); n++) id = `${prefix}-${base}-${n}`;
    taken.add(id);
    return id;
  };
  return [
    ...people.map((dir): Setup => {
      const abs = checkedDir(dir);
      return {
        id: idFor('person', dir),
        label: `person: replayed ${abs}`,
        kind: 'desktop',
        style: 'human',
        humanTraces: abs,
        person: true,
      };
    }),
    ...bots.map((dir): Setup => {
      const abs = checkedDir(dir);
      return {
        id: idFor('xdotool-replay', dir),
        label: `plain chromium, replayed bot (${abs})`,
        kind: 'desktop',
        style: 'replay_bot',
        botTraces: abs,
        person: false,
      };
    }),
  ];
}

/** The comma-separated list of an option (`a,b`; empty entries dropped). */
export function dirList(value: string | undefined): string[] {
  return (value ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
}

/** The directory's absolute path; throws unless it holds at least one replayable `.txt` trace. */
function checkedDir(dir: string): string {
  const abs = path.resolve(dir);
  if (!fs.existsSync(abs) || !fs.statSync(abs).isDirectory()) throw new Error(`${dir}: not a directory`);
  const replayable = fs
    .readdirSync(abs)
    .filter((f) => f.endsWith('.txt'))
    .some((f) => parseTrace(fs.readFileSync(path.join(abs, f), 'utf8')).moves.length >= MIN_REPLAY_MOVES);
  if (!replayable)
    throw new Error(
      `${dir}: no trace with ${MIN_REPLAY_MOVES}+ moves (DELBOT format: resolution:W,H then <ms>,<Move|Pressed|Released>,<x>,<y>)`,
    );
  return abs;
}
