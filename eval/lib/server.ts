import type { AppContext } from '../../packages/server/src/context.ts';
import { buildApp } from '../../packages/server/src/http/app.ts';
import { createTestWorkspace } from '../../packages/server/src/testing/accounts.ts';
import { createTestContext } from '../../packages/server/src/testing/context.ts';
import { Api } from './api.ts';

/**
 * The real Warden app, in process, on loopback: in-memory SQLite and hot state, rate limits
 * raised, loopback trusted as the proxy (so X-Forwarded-For carries each simulated client's
 * address), and a virtual clock so that days of traffic replay in seconds. The clock drives
 * ctx.now (decisions, tokens, challenges) and the hot-state windows (velocity, fan-out).
 */
export class VirtualClock {
  constructor(private t: number) {}
  readonly now = (): number => this.t;
  /** Moves forward only. */
  set(t: number): void {
    if (t > this.t) this.t = Math.floor(t);
  }
}

export interface Harness {
  api: Api;
  clock: VirtualClock;
  baseUrl: string;
  close(): Promise<void>;
}

export async function startHarness(t0: number): Promise<Harness> {
  const clock = new VirtualClock(t0);
  // One clock for the context and its hot state, given before the services are built: the engine
  // they hold reads and writes that hot state.
  const ctx: AppContext = await createTestContext({
    now: clock.now,
    env: {
      WARDEN_RATE_SERVER_PER_SECOND: '1000000',
      WARDEN_RATE_BROWSER_PER_SECOND: '1000000',
      WARDEN_TRUSTED_PROXIES: '127.0.0.1',
    },
  });
  const app = await buildApp(ctx);
  const baseUrl = await app.listen({ host: '127.0.0.1', port: 0 });
  const { site } = await createTestWorkspace(ctx, { plan: 'pro', origins: ['https://shop.example'] });
  return {
    api: new Api(baseUrl, site.siteKey, site.secretKey),
    clock,
    baseUrl,
    async close() {
      await app.close();
      await ctx.hotState.close();
      await ctx.database.close();
    },
  };
}
