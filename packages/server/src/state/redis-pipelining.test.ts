import type { Redis } from 'ioredis';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { AppContext } from '../context.ts';
import { buildApp } from '../http/app.ts';
import { History, type Observation } from '../scoring/history.ts';
import { insertSite, testSite } from '../scoring/test-fixtures.ts';
import { localStateDeps } from '../services.ts';
import { createTestWorkspace } from '../testing/accounts.ts';
import { createTestContext, testHotStates } from '../testing/context.ts';
import { serverHeaders } from '../testing/scoring-app.ts';
import type { RedisHotState } from './redis.ts';

/**
 * Round trips to Redis, counted as writes to its socket: with auto-pipelining every command issued
 * in one turn of the event loop goes out in one write, and the next write waits for answers.
 */
async function roundTrips(client: Redis, work: () => Promise<unknown>): Promise<number> {
  await client.ping();
  const stream = (client as unknown as { stream: { write: (...args: unknown[]) => boolean } }).stream;
  const write = stream.write;
  let writes = 0;
  stream.write = (...args: unknown[]) => {
    writes++;
    return write.apply(stream, args);
  };
  try {
    await work();
  } finally {
    stream.write = write;
  }
  return writes;
}

/** Commands sent to Redis while `work` runs (several may share a round trip), by name. */
async function commands(client: Redis, work: () => Promise<unknown>): Promise<string[]> {
  await client.ping();
  const send = client.sendCommand;
  const sent: string[] = [];
  client.sendCommand = ((command: { name: string }, ...rest: unknown[]) => {
    sent.push(command.name);
    return (send as (...args: unknown[]) => unknown).call(client, command, ...rest);
  }) as typeof client.sendCommand;
  try {
    await work();
  } finally {
    client.sendCommand = send;
  }
  return sent;
}

const site = testSite('site_pipelined');
const observation = (i: number): Observation => ({
  siteId: site.id,
  eventType: 'checkout',
  accountId: `acct_${i}`,
  ip: `198.51.100.${i}`,
  deviceId: `dev_${i}`,
  paymentHash: `pm_${i}`,
  email: `buyer${i}@example.com`,
  loginFailed: false,
  login: false,
  tokenId: `tok_${i}`,
  subnet: '198.51.100.0/24',
  userAgent: 'ua1',
  smallPayment: true,
  sdkServerCall: true,
  hardwareProfile: 'hw_1',
  paymentEvent: true,
});

// Redis only: skipped, with testHotStates' warning, when WARDEN_TEST_REDIS_URL is not set.
const onRedis = testHotStates().includes('redis');

describe.skipIf(!onRedis)('Redis hot state: round trips per decision', () => {
  let ctx: AppContext;
  let client: Redis;
  beforeEach(async () => {
    ctx = await createTestContext({ hotState: 'redis' });
    client = (ctx.hotState as RedisHotState).client;
    await insertSite(ctx, site);
  });
  afterEach(async () => {
    await ctx.hotState.close();
    await ctx.database.close();
  });

  it("sends an event's ~35 counter operations in at most two round trips", async () => {
    const history = new History(localStateDeps(ctx));
    await history.observe(observation(0), ctx.now()); // the site's rebuild, once per process
    for (let i = 1; i <= 3; i++) {
      let counts: unknown;
      const trips = await roundTrips(client, async () => {
        counts = await history.observe(observation(i), ctx.now());
      });
      expect(counts).toMatchObject({
        accounts_per_device_24h: 1,
        hw_devices_1h: i + 1,
        small_payments_device_24h: 1,
      });
      expect(trips).toBeLessThanOrEqual(2);
    }
  });

  it("sends an event's counter operations of one tick as one script call (state/redis-batch.ts)", async () => {
    const history = new History(localStateDeps(ctx));
    await history.observe(observation(0), ctx.now()); // the site's rebuild, once per process
    const sent = await commands(client, async () => history.observe(observation(1), ctx.now()));
    // One script call per wave (at most two: the distinct counts that add only when their member
    // is new), besides the values it sets (SET), instead of ~35 commands.
    expect(sent.filter((name) => name !== 'set').every((name) => name === 'evalsha')).toBe(true);
    expect(sent.filter((name) => name === 'evalsha').length).toBeLessThanOrEqual(2);
    expect(sent.length).toBeLessThanOrEqual(4);
  });

  it('scores and records a /verify decision in at most four round trips, concurrent ones sharing them', async () => {
    const app = await buildApp(ctx);
    try {
      const w = await createTestWorkspace(ctx, { plan: 'pro' });
      const verify = (i: number) =>
        app.inject({
          method: 'POST',
          url: '/api/antibot/verify',
          headers: serverHeaders(w.site),
          payload: {
            context: {
              event_type: 'login',
              account_id: `acct_${i}`,
              ip_address: '203.0.113.9',
              login_succeeded: false,
            },
          },
        });
      expect((await verify(0)).statusCode).toBe(201);
      // The rate limit, the counters (two waves), the outcome remembered after the commit.
      expect(await roundTrips(client, () => verify(1))).toBeLessThanOrEqual(4);
      const together = await roundTrips(client, () =>
        Promise.all(Array.from({ length: 20 }, (_, i) => verify(10 + i))),
      );
      expect(together).toBeLessThan(20 * 4);
    } finally {
      await app.close();
    }
  });
});
