import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

// The Biome plugin of biome.json (lint/routes-without-queries.grit), run on a small tree that
// mirrors the repository's folders: every query or transaction in a shipped http/ file is
// reported; the same code in a service module or in a route test is not.

const repoRoot = path.dirname(path.dirname(fileURLToPath(import.meta.url)));
const biome = path.join(repoRoot, 'node_modules', '.bin', 'biome');

const QUERIES = [
  "export const a = db.selectFrom('users');",
  "export const b = ctx.database.db.insertInto('users');",
  "export const c = trx.updateTable('sites');",
  "export const d = db.deleteFrom('lists');",
  'export const e = db.transaction();',
  'export const f = sql`select 1`;',
].join('\n');
const PRELUDE = 'declare const db: any, trx: any, ctx: any, sql: any;\n';

const FILES: Record<string, string> = {
  'packages/server/src/http/routes/wrong.ts': PRELUDE + QUERIES,
  'packages/server/src/http/wrong-hook.ts':
    "declare const db: any;\nexport const a = db.selectFrom('users');",
  'packages/server/src/http/routes/wrong.test.ts': PRELUDE + QUERIES,
  'packages/server/src/workspace/ok.ts': PRELUDE + QUERIES,
  'packages/server/src/http/routes/ok.ts':
    "import { findSite } from '../../workspace/sites.ts';\nexport const f = findSite;",
};

let fixture: string;
let reported: string[];

beforeAll(() => {
  fixture = fs.mkdtempSync(path.join(os.tmpdir(), 'warden-routes-lint-'));
  fs.copyFileSync(path.join(repoRoot, 'biome.json'), path.join(fixture, 'biome.json'));
  fs.cpSync(path.join(repoRoot, 'lint'), path.join(fixture, 'lint'), { recursive: true });
  for (const [file, text] of Object.entries(FILES)) {
    fs.mkdirSync(path.dirname(path.join(fixture, file)), { recursive: true });
    fs.writeFileSync(path.join(fixture, file), `${text}\n`);
  }
  const run = spawnSync(biome, ['lint', '--reporter=json', '--max-diagnostics=100', 'packages'], {
    cwd: fixture,
    encoding: 'utf8',
  });
  const report = JSON.parse(run.stdout) as {
    diagnostics: { category: string; location: { path: string; start: { line: number } } }[];
  };
  reported = report.diagnostics
    .filter((d) => d.category === 'plugin')
    .map((d) => `${d.location.path}:${d.location.start.line}`)
    .sort();
});

afterAll(() => fs.rmSync(fixture, { recursive: true, force: true }));

describe('routes run no queries (biome plugin lint/routes-without-queries.grit)', () => {
  it('reports each query and transaction in shipped http/ files, and nothing else', () => {
    expect(reported).toEqual([
      // Line 1 declares `sql`: the name of kysely's raw-SQL tag is not used in http/ at all.
      'packages/server/src/http/routes/wrong.ts:1',
      'packages/server/src/http/routes/wrong.ts:2',
      'packages/server/src/http/routes/wrong.ts:3',
      'packages/server/src/http/routes/wrong.ts:4',
      'packages/server/src/http/routes/wrong.ts:5',
      'packages/server/src/http/routes/wrong.ts:6',
      'packages/server/src/http/routes/wrong.ts:7',
      'packages/server/src/http/wrong-hook.ts:2',
    ]);
  });
});
