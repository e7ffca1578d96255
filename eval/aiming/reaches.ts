import { readFileSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';
import type { Sample } from '../lib/traces.ts';

/**
 * People aiming at buttons (the mousetrap study KH2017: a reach from a start button to one of two
 * response buttons per trial, positions polled every 10 ms). The data set is GPL-3: it is read
 * from a path given at run time and nothing of it is kept in the repository.
 */
export interface Reach {
  subject: number;
  trial: number;
  /** Polled positions [ms from the trial's start, x, y], repeats of one position dropped. */
  moves: Sample[];
  /** Where and when the button was pressed: the last polled position, at the last poll. */
  press: Sample;
}

/** Splits one CSV line on commas outside double quotes; quotes are removed. */
export function splitCsvLine(line: string): string[] {
  const out: string[] = [];
  let field = '';
  let quoted = false;
  for (const ch of line) {
    if (ch === '"') quoted = !quoted;
    else if (ch === ',' && !quoted) {
      out.push(field);
      field = '';
    } else field += ch;
  }
  out.push(field);
  return out;
}

function numbers(json: string): number[] {
  const v: unknown = JSON.parse(json);
  if (!Array.isArray(v) || v.some((n) => typeof n !== 'number' || !Number.isFinite(n)))
    throw new Error('not an array of numbers');
  return v as number[];
}

/**
 * The reaches of a `raw_data.csv` text (header row with `subject_nr`, `count_trial`,
 * `timestamps_get_response`, `xpos_get_response`, `ypos_get_response`). A row whose arrays differ
 * in length or hold fewer than two polls is skipped; a header without those columns throws.
 */
export function parseReaches(text: string): Reach[] {
  const lines = text.split(/\r?\n/).filter((l) => l.trim() !== '');
  const header = splitCsvLine(lines[0] ?? '');
  const col = (name: string) => {
    const i = header.indexOf(name);
    if (i < 0) throw new Error(`aiming data: no column ${name}`);
    return i;
  };
  const [subject, trial, ts, xs, ys] = [
    col('subject_nr'),
    col('count_trial'),
    col('timestamps_get_response'),
    col('xpos_get_response'),
    col('ypos_get_response'),
  ];
  const out: Reach[] = [];
  for (const line of lines.slice(1)) {
    const row = splitCsvLine(line);
    const t = numbers(row[ts] ?? '[]');
    const x = numbers(row[xs] ?? '[]');
    const y = numbers(row[ys] ?? '[]');
    if (t.length < 2 || x.length !== t.length || y.length !== t.length) continue;
    const t0 = t[0]!;
    const moves: Sample[] = [];
    for (let i = 0; i < t.length; i++) {
      const last = moves[moves.length - 1];
      if (i > 0 && last && last[1] === x[i] && last[2] === y[i]) continue;
      moves.push([t[i]! - t0, x[i]!, y[i]!]);
    }
    const n = t.length - 1;
    out.push({
      subject: Number(row[subject]),
      trial: Number(row[trial]),
      moves,
      press: [t[n]! - t0, x[n]!, y[n]!],
    });
  }
  return out;
}

/** The reaches of a `raw_data.csv.gz` (or plain `.csv`) file. */
export function readReaches(file: string): Reach[] {
  const bytes = readFileSync(file);
  const text = file.endsWith('.gz') ? gunzipSync(bytes).toString('utf8') : bytes.toString('utf8');
  return parseReaches(text);
}

/**
 * Tuning people (odd subject numbers) and held-out people (even): a fixed split, so nothing is
 * tuned on the people whose figures are reported.
 */
export function splitPeople(reaches: readonly Reach[]): { tuning: Reach[]; heldOut: Reach[] } {
  return {
    tuning: reaches.filter((r) => r.subject % 2 === 1),
    heldOut: reaches.filter((r) => r.subject % 2 === 0),
  };
}
