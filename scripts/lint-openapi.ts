// npm run lint:openapi — the OpenAPI document as tools see it:
// 1. builds the app (in-memory database, nothing listens) and writes /api/openapi.json to a temp dir;
// 2. lints it with Redocly's recommended rules (redocly.yaml): any error fails;
// 3. generates TypeScript types from it with openapi-typescript and type-checks a small client
//    against them with tsc (strict): the document is usable for client generation.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { createTestApp } from '../packages/server/src/testing/context.ts';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const bin = (name: string) => path.join(root, 'node_modules', '.bin', name);
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'warden-openapi-'));

function run(step: string, command: string, args: string[]): void {
  console.log(`\n[lint:openapi] ${step}`);
  const result = spawnSync(command, args, { cwd: root, stdio: 'inherit' });
  if (result.status !== 0) {
    console.error(`[lint:openapi] ${step} failed (files in ${dir})`);
    process.exit(result.status ?? 1);
  }
}

const t = await createTestApp();
const document = (await t.app.inject('/api/openapi.json')).body;
await t.close();
const spec = path.join(dir, 'openapi.json');
fs.writeFileSync(spec, document);

run('redocly lint', bin('redocly'), ['lint', spec, '--config', path.join(root, 'redocly.yaml')]);

const types = path.join(dir, 'warden-api.d.ts');
run('openapi-typescript', bin('openapi-typescript'), [spec, '--output', types]);
// A client written against the generated types: wrong paths, fields or types fail to compile.
fs.writeFileSync(
  path.join(dir, 'client.ts'),
  `import type { components, operations, paths } from './warden-api.js';

type Json<R> = R extends { content: { 'application/json': infer B } } ? B : never;
type VerifyBody = Json<NonNullable<paths['/api/antibot/verify']['post']['requestBody']>>;
type Decision = Json<operations['verifyEvent']['responses']['201']>['data'];
type Failure = Json<operations['verifyEvent']['responses']['4XX']>;

export async function verify(base: string, keys: { site: string; secret: string }, body: VerifyBody): Promise<Decision> {
  const res = await fetch(\`\${base}/api/antibot/verify\`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-site-key': keys.site, 'x-secret-key': keys.secret, 'idempotency-key': 'order-1' },
    body: JSON.stringify(body),
  });
  if (!res.ok) throw new Error(((await res.json()) as Failure).error.code);
  return ((await res.json()) as Json<operations['verifyEvent']['responses']['201']>).data;
}

const body: VerifyBody = {
  context: { event_type: 'login', account_id: 'acct_1', order_amount: 12.5 },
  idempotency_key: 'order-1',
};
type Sample = NonNullable<NonNullable<VerifyBody['behavior']>['mouse']>[number];
export const sample: Sample = [0, 10, 20]; // a tuple: [t, x, y]
export const score = (d: Decision): number => d.risk_score;
export const action = (d: Decision): 'allow' | 'review' | 'challenge' | 'block' => d.action;
export const example = body;
export type Schemas = components;
`,
);
run('tsc (client against the generated types)', bin('tsc'), [
  '--noEmit',
  '--strict',
  '--target',
  'es2022',
  '--module',
  'nodenext',
  '--moduleResolution',
  'nodenext',
  '--lib',
  'es2022,dom',
  '--skipLibCheck',
  path.join(dir, 'client.ts'),
]);

fs.rmSync(dir, { recursive: true, force: true });
console.log('\n[lint:openapi] ok: valid OpenAPI 3.1, zero lint errors, generated client type-checks');
