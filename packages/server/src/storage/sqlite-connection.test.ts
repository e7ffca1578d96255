import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { openSqlite, SQLITE_CACHE_KB } from './sqlite-connection.mjs';

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
});

describe('openSqlite', () => {
  it("sizes each connection's page cache (not better-sqlite3's 16 MB default)", () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'warden-sqlite-'));
    dirs.push(dir);
    const file = path.join(dir, 'warden.db');
    const main = openSqlite(file);
    const writer = openSqlite(file, SQLITE_CACHE_KB.writer);
    try {
      expect(main.pragma('cache_size', { simple: true })).toBe(-SQLITE_CACHE_KB.main);
      expect(writer.pragma('cache_size', { simple: true })).toBe(-SQLITE_CACHE_KB.writer);
      expect(SQLITE_CACHE_KB.main).toBeLessThan(16_000);
      expect(SQLITE_CACHE_KB.writer).toBeLessThan(16_000);
      // The other settings are the same on both.
      for (const c of [main, writer]) {
        expect(c.pragma('journal_mode', { simple: true })).toBe('wal');
        expect(c.pragma('mmap_size', { simple: true })).toBe(0);
      }
    } finally {
      main.close();
      writer.close();
    }
  });
});
