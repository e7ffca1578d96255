import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { dirList, heldOutSetups } from '../browsers/held-out.ts';
import { SETUPS, selectSetups } from '../browsers/setups.ts';

/** `npm run eval:browsers -- --people <dir> --bots <dir>`: a setup per directory of DELBOT recordings. */
const root = fs.mkdtempSync(path.join(os.tmpdir(), 'warden-held-out-'));
afterAll(() => fs.rmSync(root, { recursive: true, force: true }));

function folder(name: string, moves: number): string {
  const dir = path.join(root, name);
  fs.mkdirSync(dir, { recursive: true });
  const lines = ['resolution:412,915', '10.5,Pressed,100,200'];
  for (let i = 0; i < moves; i++) lines.push(`${20 + i * 16.7},Move,${100 + i * 3},${200 + i}`);
  fs.writeFileSync(path.join(dir, 'trace_1.txt'), `${lines.join('\r\n')}\r\n`);
  return dir;
}

describe('held-out setups', () => {
  it('adds person-<dirname> and xdotool-replay-<dirname>, replayed like person-pc1 and the pynput replay', () => {
    const phone = folder('phone', 30);
    const lib = folder('newlib', 30);
    const added = heldOutSetups([phone], [lib]);
    expect(added.map((s) => s.id)).toEqual(['person-phone', 'xdotool-replay-newlib']);
    const pc1 = SETUPS.find((s) => s.id === 'person-pc1');
    const pynput = SETUPS.find((s) => s.id === 'xdotool-replay-pynput');
    expect(added[0]).toMatchObject({ kind: pc1?.kind, style: 'human', person: true, humanTraces: phone });
    expect(added[1]).toMatchObject({
      kind: pynput?.kind,
      style: 'replay_bot',
      person: false,
      botTraces: lib,
    });
    // --only selects among built-in (person-pc1, person-aiming) and added setups.
    expect(selectSetups(['person-'], [...SETUPS, ...added]).map((s) => s.id)).toEqual([
      'person-pc1',
      'person-aiming',
      'person-phone',
    ]);
  });

  it('keeps ids apart for two directories of one name, and reads comma lists', () => {
    const a = folder('a/laptop', 12);
    const b = folder('b/laptop', 12);
    expect(heldOutSetups(dirList(` ${a}, ${b},`), []).map((s) => s.id)).toEqual([
      'person-laptop',
      'person-laptop-2',
    ]);
  });

  it('refuses a directory without a replayable recording, naming it', () => {
    const empty = folder('too-short', 3);
    expect(() => heldOutSetups([empty], [])).toThrow(/too-short.*8\+ moves/);
    expect(() => heldOutSetups([path.join(root, 'missing')], [])).toThrow(/not a directory/);
  });
});
