import fs from 'node:fs';
import path from 'node:path';
import { type KeySample, r1 } from '../../packages/server/src/testing/key-samples.ts';

/**
 * Login-like pages of key samples built from real people's recorded typing (eval:typists): the two
 * public data sets' files as published, or compact copies with the same column names.
 */

/** One key: down time and hold (ms), and whether it is a modifier (known by name, or by its chord). */
export interface Key {
  down: number;
  hold: number;
  modifier: boolean;
}
export type Page = Key[];

const MODIFIERS = new Set([
  'SHIFT',
  'CTRL',
  'CONTROL',
  'ALT',
  'META',
  'CAPS_LOCK',
  'CAPSLOCK',
  'ALTGR',
  'WIN',
]);

/** Keys from t0 = 1000 ms, as the SDK would send them. */
export function rebase(keys: Page): Page {
  const t0 = keys[0]?.down ?? 0;
  return keys.map((k) => ({ ...k, down: k.down - t0 + 1000 }));
}

/** The index of each named column of a header line (names compared case-insensitively). */
function columns(header: string, separator: string): Map<string, number> {
  return new Map(header.split(separator).map((name, i) => [name.trim().toUpperCase(), i]));
}

/**
 * Aalto "136M keystrokes" (Dhakal et al., CHI 2018): tab-separated files with a header naming
 * PARTICIPANT_ID, PRESS_TIME, RELEASE_TIME and LETTER (ms timestamps; its `files/<id>_keystrokes.txt`
 * as published, or copies keeping those columns). Consecutive windows of 25–40 keystrokes of one
 * participant, across sentences (the pause between two sentences stands for the move between two
 * fields).
 */
export function aaltoPages(texts: string | readonly string[], random: () => number): Map<string, Page[]> {
  const byPerson = new Map<string, Page>();
  for (const text of typeof texts === 'string' ? [texts] : texts) {
    const lines = text.split('\n');
    const col = columns(lines[0] ?? '', '\t');
    const [person, press, release, letter] = ['PARTICIPANT_ID', 'PRESS_TIME', 'RELEASE_TIME', 'LETTER'].map(
      (name) => col.get(name) ?? -1,
    ) as [number, number, number, number];
    if (Math.min(person, press, release, letter) < 0)
      throw new Error('an Aalto file needs PARTICIPANT_ID, PRESS_TIME, RELEASE_TIME and LETTER columns');
    for (const line of lines.slice(1)) {
      if (line.trim() === '') continue;
      const cells = line.split('\t');
      const down = Number(cells[press]);
      const hold = Number(cells[release]) - down;
      if (!Number.isFinite(down) || !Number.isFinite(hold) || hold < 0) continue;
      const id = cells[person]!;
      const keys = byPerson.get(id) ?? [];
      keys.push({ down, hold, modifier: MODIFIERS.has((cells[letter] ?? '').toUpperCase()) });
      byPerson.set(id, keys);
    }
  }
  const pages = new Map<string, Page[]>();
  for (const [person, keys] of byPerson) {
    keys.sort((a, b) => a.down - b.down);
    const out: Page[] = [];
    let i = 0;
    for (;;) {
      const n = 25 + Math.floor(random() * 16);
      if (i + n > keys.length) break;
      out.push(rebase(keys.slice(i, i + n)));
      i += n;
    }
    pages.set(person, out);
  }
  return pages;
}

/**
 * CMU keystroke benchmark (Killourhy & Maxion, DSN 2009; `DSL-StrongPasswordData.csv`): a header
 * of subject, sessionIndex, rep, then the 11 hold (`H.*`) and 10 key-down-to-key-down (`DD.*`)
 * columns in typing order (the up-down `UD.*` columns, if there, are not needed). Seconds as
 * published, or ms in copies (told by the first hold: under 5 is seconds). 2–3 consecutive
 * repetitions of ".tie5Roanl⏎" by one subject, the next repetition's first key-down 1–2 s after the
 * previous Return's. Shift-r is one key (R): the data set times the R, not the Shift.
 */
export function cmuPages(text: string, random: () => number): Map<string, Page[]> {
  const lines = text.split('\n');
  const names = (lines[0] ?? '').split(',').map((n) => n.trim());
  const holdCols = names.flatMap((n, i) => (n.startsWith('H.') ? [i] : []));
  const gapCols = names.flatMap((n, i) => (n.startsWith('DD.') ? [i] : []));
  if (holdCols.length !== 11 || gapCols.length !== 10)
    throw new Error('a CMU file needs its 11 H.* and 10 DD.* columns');
  const runs = new Map<string, Array<{ holds: number[]; gaps: number[] }>>();
  let last = '';
  let run: Array<{ holds: number[]; gaps: number[] }> = [];
  let scale = 0;
  for (const line of lines.slice(1)) {
    if (line.trim() === '') continue;
    const cells = line.split(',');
    const holds = holdCols.map((i) => Number(cells[i]));
    const gaps = gapCols.map((i) => Number(cells[i]));
    if ([...holds, ...gaps].some((x) => !Number.isFinite(x))) continue;
    if (scale === 0) scale = holds[0]! < 5 ? 1000 : 1;
    const [subject, session, rep] = cells;
    const key = `${subject}/${session}`;
    if (key !== last || run.length === 0) {
      run = [];
      runs.set(`${key}/${rep}`, run);
      last = key;
    }
    run.push({ holds: holds.map((v) => v * scale), gaps: gaps.map((v) => v * scale) });
  }
  const pages = new Map<string, Page[]>();
  for (const [key, reps] of runs) {
    const subject = key.split('/')[0]!;
    const out = pages.get(subject) ?? [];
    let i = 0;
    for (;;) {
      const n = random() < 0.5 ? 2 : 3;
      if (i + n > reps.length) break;
      const keys: Page = [];
      let t = 1000;
      for (const [r, v] of reps.slice(i, i + n).entries()) {
        if (r > 0) t += 1000 + random() * 1000;
        for (let k = 0; k < 11; k++) {
          keys.push({ down: t, hold: v.holds[k]!, modifier: false });
          if (k < 10) t += v.gaps[k]!;
        }
      }
      out.push(keys);
      i += n;
    }
    pages.set(subject, out);
  }
  return pages;
}

/** The texts of `file`, or of every `.txt`, `.tsv` and `.csv` file in it when it is a directory (by name). */
export function readTexts(file: string): string[] {
  if (!fs.statSync(file).isDirectory()) return [fs.readFileSync(file, 'utf8')];
  return fs
    .readdirSync(file)
    .filter((f) => /\.(txt|tsv|csv)$/.test(f))
    .sort()
    .map((f) => fs.readFileSync(path.join(file, f), 'utf8'));
}

/** Key samples as the SDK sends them: in the order the keys were released (it records a key at its keyup). */
export const samples = (page: Page): KeySample[] =>
  [...page].sort((a, b) => a.down + a.hold - (b.down + b.hold)).map((k) => [r1(k.down), r1(k.hold)]);
