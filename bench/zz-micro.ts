import { createTestWorkspace } from '../packages/server/src/testing/accounts.ts';
import { createTestApp } from '../packages/server/src/testing/context.ts';
import { buildBodyPool } from './bench-bodies.ts';

const t = await createTestApp({ env: { WARDEN_RATE_SERVER_PER_SECOND: '1000000' } });
const w = await createTestWorkspace(t.ctx, { plan: 'pro' });
const pool = buildBodyPool();
const headers = {
  'x-site-key': w.site.siteKey,
  'x-secret-key': w.site.secretKey,
  'content-type': 'application/json',
};
let n = 0;
async function run(count: number) {
  const cpu = process.cpuUsage();
  for (let i = 0; i < count; i++) {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/antibot/verify',
      headers,
      payload: pool.body(n++),
    });
    if (res.statusCode !== 201) throw new Error(res.body);
  }
  const c = process.cpuUsage(cpu);
  return `cpu ${((c.user + c.system) / 1000 / count).toFixed(3)} ms/req`;
}
await run(300);
console.log('warden', await run(3000));
await t.close();
