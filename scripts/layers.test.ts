import fs from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { cruise, type IConfiguration, type ICruiseResult } from 'dependency-cruiser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

// The layer rules of `npm run lint` (.dependency-cruiser.cjs), run on a small tree that mirrors the
// repository's folders: each deliberately wrong import must be reported under its rule, and the
// allowed ones must not.

const repoRoot = path.dirname(path.dirname(fileURLToPath(import.meta.url)));
const config: IConfiguration = createRequire(import.meta.url)(path.join(repoRoot, '.dependency-cruiser.cjs'));

const FILES: Record<string, string> = {
  'packages/protocol/src/index.ts': "export const ACTIONS = ['allow'] as const;\n",
  'packages/protocol/src/wrong.ts': "export type { Db } from '../../server/src/storage/db.ts';\n",
  'packages/dashboard/src/ok.ts': "export { ACTIONS } from '../../protocol/src/index.ts';\n",
  'packages/dashboard/src/wrong.ts':
    "export type { Cluster } from '../../server/src/http/routes/clusters.ts';\n",
  'packages/dashboard/src/wrong.test.ts':
    "import type { Db } from '../../server/src/storage/db.ts';\nexport type D = Db;\n",
  'packages/node/src/wrong.ts': "export { track } from '../../browser/src/index.ts';\n",
  'packages/node/src/wrong-server.ts': "export type { Db } from '../../server/src/storage/db.ts';\n",
  'packages/node/src/client.test.ts': "import '../../server/src/http/app.ts';\n",
  'packages/browser/src/index.ts': 'export const track = 1;\n',
  'packages/browser/src/wrong.ts':
    "import { readFileSync } from 'node:fs';\nexport const f = readFileSync;\n",
  'packages/protocol/src/webhook-signature.ts':
    "import { createHmac } from 'node:crypto';\nexport const h = createHmac;\n",
  'packages/server/src/storage/db.ts': 'export type Db = { n: number };\n',
  'packages/server/src/storage/wrong.ts': "import '../http/app.ts';\n",
  'packages/server/src/http/app.ts': "import './routes/clusters.ts';\n",
  'packages/server/src/http/routes/clusters.ts':
    "import type { Db } from '../../storage/db.ts';\nexport type Cluster = Db;\n",
  'packages/server/src/rules/wrong.ts': "import '../http/routes/clusters.ts';\n",
  'packages/server/src/storage/precompiled.ts': 'export const precompiled = 1;\n',
  'packages/server/src/http/routes/wrong-sql.ts':
    "import { precompiled } from '../../storage/precompiled.ts';\nexport const q = precompiled;\n",
  'packages/server/src/scoring/signals/wrong.ts':
    "import type { Db } from '../../storage/db.ts';\nexport type S = Db;\n",
  'packages/server/src/scoring/only-types-a.ts':
    "import type { B } from './only-types-b.ts';\nexport type A = { b?: B };\n",
  'packages/server/src/scoring/only-types-b.ts':
    "import type { A } from './only-types-a.ts';\nexport type B = { a?: A };\n",
  'packages/server/src/scoring/uses-test.ts': "import './helper.test.ts';\n",
  'packages/server/src/scoring/helper.test.ts': "import '../http/routes/clusters.ts';\n",
  'packages/server/src/webhooks/test-fixtures.ts': "import '../http/app.ts';\n",
  'packages/server/src/webhooks/uses-fixture.ts': "import './test-fixtures.ts';\n",
};

let fixture: string;
let result: ICruiseResult;

beforeAll(async () => {
  fixture = fs.mkdtempSync(path.join(os.tmpdir(), 'warden-layers-'));
  for (const [file, text] of Object.entries(FILES)) {
    fs.mkdirSync(path.dirname(path.join(fixture, file)), { recursive: true });
    fs.writeFileSync(path.join(fixture, file), text);
  }
  const { tsConfig: _repoTsConfig, ...options } = config.options ?? {};
  const output = await cruise(['packages'], {
    ...options,
    baseDir: fixture,
    validate: true,
    ruleSet: { forbidden: config.forbidden ?? [] },
  });
  result = output.output as ICruiseResult;
});

afterAll(() => fs.rmSync(fixture, { recursive: true, force: true }));

function violations(rule: string): string[] {
  return result.summary.violations
    .filter((v) => v.rule.name === rule)
    .map((v) => `${v.from} -> ${v.to}`)
    .sort();
}

describe('layer rules (.dependency-cruiser.cjs)', () => {
  it('cruised the whole fixture', () => {
    const cruised = result.modules.filter((m) => !m.coreModule).map((m) => m.source);
    expect(cruised.sort()).toEqual(Object.keys(FILES).sort());
  });

  it('the dashboard may not import the server, not even from a test; importing protocol is fine', () => {
    expect(violations('dashboard-not-to-server')).toEqual([
      'packages/dashboard/src/wrong.test.ts -> packages/server/src/storage/db.ts',
      'packages/dashboard/src/wrong.ts -> packages/server/src/http/routes/clusters.ts',
    ]);
  });

  it('the SDKs may not import the server; their tests may start one', () => {
    expect(violations('sdks-not-to-server')).toEqual([
      'packages/node/src/wrong-server.ts -> packages/server/src/storage/db.ts',
    ]);
  });

  it('protocol imports no other workspace package', () => {
    expect(violations('protocol-self-contained')).toEqual([
      'packages/protocol/src/wrong.ts -> packages/server/src/storage/db.ts',
    ]);
  });

  it('one client package may not import another', () => {
    expect(violations('sdks-not-to-each-other')).toEqual([
      'packages/node/src/wrong.ts -> packages/browser/src/index.ts',
    ]);
  });

  it('route modules are imported from http/ only, and test files may cross layers', () => {
    expect(violations('routes-only-from-http')).toEqual([
      'packages/server/src/rules/wrong.ts -> packages/server/src/http/routes/clusters.ts',
    ]);
    expect(violations('only-http-to-http')).toEqual([
      'packages/server/src/rules/wrong.ts -> packages/server/src/http/routes/clusters.ts',
      'packages/server/src/storage/wrong.ts -> packages/server/src/http/app.ts',
    ]);
  });

  it('storage/ imports no upper layer', () => {
    expect(violations('storage-not-to-upper-layers')).toEqual([
      'packages/server/src/storage/wrong.ts -> packages/server/src/http/app.ts',
    ]);
  });

  it('routes run no queries: no value import of the query helpers (row types are fine)', () => {
    expect(violations('routes-without-sql')).toEqual([
      'packages/server/src/http/routes/wrong-sql.ts -> packages/server/src/storage/precompiled.ts',
    ]);
  });

  it('signals do no I/O', () => {
    expect(violations('signals-without-io')).toEqual([
      'packages/server/src/scoring/signals/wrong.ts -> packages/server/src/storage/db.ts',
    ]);
  });

  it('a cycle made only of type imports is a cycle (reported once)', () => {
    expect(violations('no-circular')).toEqual([
      'packages/server/src/scoring/only-types-a.ts -> packages/server/src/scoring/only-types-b.ts',
    ]);
  });

  it('shipped code imports no test file or test helper', () => {
    expect(violations('production-not-to-tests')).toEqual([
      'packages/server/src/scoring/uses-test.ts -> packages/server/src/scoring/helper.test.ts',
      'packages/server/src/webhooks/uses-fixture.ts -> packages/server/src/webhooks/test-fixtures.ts',
    ]);
  });

  it("browser code imports no Node built-in; protocol's Node-only subpath may", () => {
    expect(violations('browser-code-without-node')).toEqual(['packages/browser/src/wrong.ts -> fs']);
  });
});
