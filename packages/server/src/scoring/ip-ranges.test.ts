import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { countLines, packCountry, readRanges } from './ip-ranges.ts';

const dirs: string[] = [];
function csv(text: string): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'warden-ranges-'));
  dirs.push(dir);
  const file = path.join(dir, 'ranges.csv');
  fs.writeFileSync(file, text);
  return file;
}
afterEach(() => {
  for (const dir of dirs.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
});

describe('readRanges', () => {
  it('counts the lines first, with or without a final newline, 0 for a missing file', async () => {
    expect(await countLines(csv('1,2,x\n3,4,y\n'))).toBe(3);
    expect(await countLines(csv('1,2,x\n3,4,y'))).toBe(2);
    expect(await countLines(path.join(os.tmpdir(), 'warden-no-such-ranges.csv'))).toBe(0);
  });

  it('keeps the lines with a value, the last one without a newline included', async () => {
    const t = await readRanges<Uint32Array>(
      csv('16777216,16777471,US\n16777472,16778239,??\n16778240,16779263,AU'),
      false,
      packCountry,
    );
    expect([...t.starts]).toEqual([16777216, 16778240]);
    expect([...t.ends]).toEqual([16777471, 16779263]);
    expect([...t.values]).toEqual([packCountry('US'), packCountry('AU')]);
  });

  it('keeps the upper 64 bits of IPv6 ranges', async () => {
    const start = (0x2001_0db8n << 96n) + 5n;
    const end = (0x2001_0db8_ffffn << 80n) | ((1n << 80n) - 1n);
    const t = await readRanges<BigUint64Array>(csv(`${start},${end},DE\n`), true, packCountry);
    expect([...t.starts]).toEqual([start >> 64n]);
    expect([...t.ends]).toEqual([end >> 64n]);
  });

  it('gives an empty table for a missing file', async () => {
    const t = await readRanges<Uint32Array>(path.join(os.tmpdir(), 'warden-no-such.csv'), false, packCountry);
    expect(t.starts.length + t.ends.length + t.values.length).toBe(0);
  });
});
