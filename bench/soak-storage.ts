/**
 * Bytes on disk per decision for the soak benchmark (bench/soak.ts), read from the stopped server's
 * SQLite data dir: the whole data dir (database, WAL and shared-memory files) over the decisions it
 * holds, and the decisions table with its indexes alone (SQLite's dbstat), with the average stored
 * length of each column that holds JSON or a blob.
 */
import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';

export interface StorageReport {
  decisions: number;
  dataDirBytes: number;
  tableBytes: number;
  indexBytes: number;
  columnBytes: Record<string, number>;
  /** Per index of the decisions table: its bytes on disk. */
  indexes: Record<string, number>;
  /** Of the decisions table's pages: the bytes of row payload, and the bytes left unused. */
  tablePayload: number;
  tableUnused: number;
}

function dirBytes(dir: string): number {
  let total = 0;
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    total += entry.isDirectory() ? dirBytes(full) : fs.statSync(full).size;
  }
  return total;
}

export function storageReport(dataDir: string): StorageReport {
  const dataDirBytes = dirBytes(dataDir);
  const db = new Database(path.join(dataDir, 'warden.db'), { readonly: true });
  try {
    const decisions = (db.prepare('select count(*) as n from decisions').get() as { n: number }).n;
    const pages = db
      .prepare(
        `select name, sum(pgsize) as bytes, sum(payload) as payload, sum(unused) as unused from dbstat
          where name = 'decisions' or name in (select name from sqlite_master where tbl_name = 'decisions' and type = 'index')
          group by name`,
      )
      .all() as Array<{ name: string; bytes: number; payload: number; unused: number }>;
    const table = pages.find((p) => p.name === 'decisions');
    const tableBytes = table?.bytes ?? 0;
    const indexes = Object.fromEntries(
      pages.filter((p) => p.name !== 'decisions').map((p) => [p.name, p.bytes]),
    );
    const indexBytes = pages.filter((p) => p.name !== 'decisions').reduce((sum, p) => sum + p.bytes, 0);
    const columns = (
      db.prepare(`select name, type from pragma_table_info('decisions')`).all() as Array<{
        name: string;
        type: string;
      }>
    )
      .filter((c) => /text|blob|bytea/i.test(c.type))
      .map((c) => c.name);
    const averages = db
      .prepare(
        `select ${columns.map((c) => `avg(coalesce(length("${c}"), 0)) as "${c}"`).join(', ')} from decisions`,
      )
      .get() as Record<string, number>;
    return {
      decisions,
      dataDirBytes,
      tableBytes,
      indexBytes,
      columnBytes: averages,
      indexes,
      tablePayload: table?.payload ?? 0,
      tableUnused: table?.unused ?? 0,
    };
  } finally {
    db.close();
  }
}

/** The report as printed lines. */
export function storageLines(report: StorageReport): string[] {
  const per = (bytes: number) => (report.decisions ? Math.round(bytes / report.decisions) : 0);
  const big = Object.entries(report.columnBytes)
    .filter(([, bytes]) => bytes >= 16)
    .sort(([, a], [, b]) => b - a)
    .map(([name, bytes]) => `${name} ${Math.round(bytes)}`)
    .join(', ');
  return [
    `disk: ${report.decisions} decisions, data dir ${(report.dataDirBytes / 1024 / 1024).toFixed(1)} MB, ` +
      `${per(report.dataDirBytes)} B per decision on disk`,
    `decisions table ${per(report.tableBytes)} B (row payload ${per(report.tablePayload)} B, unused ` +
      `${per(report.tableUnused)} B) + its indexes ${per(report.indexBytes)} B per decision; ` +
      `average column bytes: ${big}`,
    `per index, B per decision: ${Object.entries(report.indexes)
      .sort(([, a], [, b]) => b - a)
      .map(([name, bytes]) => `${name} ${per(bytes)}`)
      .join(', ')}`,
  ];
}
