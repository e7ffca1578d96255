import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * One module owns each table (issue 13 point 3): only `decisions/` reads or writes the `decisions`
 * table. This scans every other non-test source file (migrations aside: they define the table) for
 * a query that names it, in Kysely or in raw SQL.
 */
const SRC = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..');

function isExempt(relative: string): boolean {
  return (
    relative.startsWith('decisions/') ||
    relative.startsWith('storage/migrations/') ||
    /\.test\.ts$/.test(relative)
  );
}

function sourceFiles(dir: string): string[] {
  const out: string[] = [];
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) out.push(...sourceFiles(full));
    else if (/\.(ts|mts|mjs|js)$/.test(entry.name)) out.push(full);
  }
  return out;
}

/** A Kysely query on the table, or raw SQL naming it after FROM, JOIN, INTO or UPDATE. */
const QUERY =
  /\b(?:selectFrom|insertInto|updateTable|deleteFrom|(?:inner|left|right|full|cross)Join)\(\s*['"`]decisions\b|\b(?:from|join|into|update)\s+"?decisions\b(?!-)/gi;

/** `file:line` of every query of the `decisions` table in `source`. */
export function decisionQueries(source: string, relative: string): string[] {
  return [...source.matchAll(QUERY)].map((m) => `${relative}:${source.slice(0, m.index).split('\n').length}`);
}

describe('the decisions table', () => {
  it('finds the patterns it looks for', () => {
    const sample = [
      "db.selectFrom('decisions').selectAll()",
      "  .leftJoin('decisions as d', 'd.id', 'k.decision_id')",
      "trx.insertInto('decisions').values(rows)",
      "db.updateTable( 'decisions' ).set({ label })",
      'sql`select features from decisions where id = ?`',
      "db.prepare('UPDATE decisions SET label = ?')",
      "db.selectFrom('decision_labels')",
      '// rebuilt from recorded decisions',
      "db.selectFrom('webhook_deliveries')",
      '// what the graph reads from `decisions` at start',
      'db\n  .selectFrom(\n    "decisions",\n  )',
    ].join('\n');
    expect(decisionQueries(sample, 'x.ts')).toEqual([
      'x.ts:1',
      'x.ts:2',
      'x.ts:3',
      'x.ts:4',
      'x.ts:5',
      'x.ts:6',
      'x.ts:12',
    ]);
  });

  it('is queried only from decisions/ (and the migrations)', () => {
    const found = sourceFiles(SRC)
      .map((file) => path.relative(SRC, file).split(path.sep).join('/'))
      .filter((relative) => !isExempt(relative))
      .flatMap((relative) => decisionQueries(fs.readFileSync(path.join(SRC, relative), 'utf8'), relative));
    expect(found).toEqual([]);
  });
});
