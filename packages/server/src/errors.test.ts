import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ERROR_CODES } from './errors.ts';

/** The rows of the code table in docs/errors.md as [status, code] (cells trimmed, so padding is fine). */
function documentedRows(): Array<[string, string]> {
  const doc = fs.readFileSync(path.resolve(import.meta.dirname, '../../../docs/errors.md'), 'utf8');
  return doc
    .split('\n')
    .map((line) => line.split('|').map((cell) => cell.trim()))
    .filter((cells) => /^\d{3}$/.test(cells[1] ?? '') && /^`[a-z_]+`$/.test(cells[2] ?? ''))
    .map((cells) => [cells[1] as string, (cells[2] as string).slice(1, -1)]);
}

describe('error code table', () => {
  const rows = documentedRows();

  it.each(Object.entries(ERROR_CODES))('documents %s with its status', (code, { status }) => {
    const row = rows.find(([, c]) => c === code);
    expect(row, `docs/errors.md has no row for ${code}`).toBeDefined();
    expect(row?.[0]).toBe(String(status));
  });

  it('documents no code that does not exist', () => {
    expect(rows.map(([, c]) => c).sort()).toEqual(Object.keys(ERROR_CODES).sort());
  });
});
