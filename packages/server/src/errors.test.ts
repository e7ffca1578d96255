import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ERROR_CODES } from './errors.ts';

describe('error code table', () => {
  const doc = fs.readFileSync(path.resolve(import.meta.dirname, '../../../docs/errors.md'), 'utf8');

  it.each(Object.entries(ERROR_CODES))('documents %s with its status', (code, { status }) => {
    const row = doc.split('\n').find((line) => line.startsWith('|') && line.includes(`\`${code}\``));
    expect(row, `docs/errors.md has no row for ${code}`).toBeDefined();
    expect(row).toContain(`| ${status} |`);
  });

  it('documents no code that does not exist', () => {
    const documented = [...doc.matchAll(/^\| \d{3} \| `([a-z_]+)` \|/gm)].map((m) => m[1]);
    expect(documented.sort()).toEqual(Object.keys(ERROR_CODES).sort());
  });
});
