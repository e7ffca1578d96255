import type { AddressInfo } from 'node:net';
import type { RouteOptions } from 'fastify';
import { buildApp } from '../../http/app.ts';
import type { App } from '../../http/types.ts';
import { createTestContext } from '../context.ts';
import { createFuzzFixture, type FuzzFixture } from './fixture.ts';

export interface FuzzTarget {
  app: App;
  baseUrl: string;
  port: number;
  routes: RouteOptions[];
  fixture: FuzzFixture;
  close(): Promise<void>;
}

/**
 * A real server on loopback (embedded SQLite, short timeouts so slow cases end quickly), every
 * route collected as it registers, and a fixture of real ids. DNS is answered "not found" so no
 * generated webhook URL leaves the machine.
 */
export async function startFuzzTarget(): Promise<FuzzTarget> {
  const ctx = await createTestContext({
    env: {
      WARDEN_REQUEST_TIMEOUT_MS: '2000',
      WARDEN_HEADERS_TIMEOUT_MS: '1000',
      WARDEN_KEEP_ALIVE_TIMEOUT_MS: '1000',
      WARDEN_RATE_BROWSER_PER_SECOND: '100000',
      WARDEN_RATE_SERVER_PER_SECOND: '100000',
    },
  });
  ctx.lookup = async () => {
    throw Object.assign(new Error('not found'), { code: 'ENOTFOUND' });
  };
  const routes: RouteOptions[] = [];
  const app = await buildApp(ctx, { onRoute: (r) => routes.push(r) });
  await app.listen({ host: '127.0.0.1', port: 0 });
  const port = (app.server.address() as AddressInfo).port;
  const baseUrl = `http://127.0.0.1:${port}`;
  const fixture = await createFuzzFixture(ctx, baseUrl);
  return {
    app,
    baseUrl,
    port,
    routes: routes.filter((r) => r.url.startsWith('/api/')),
    fixture,
    async close() {
      await app.close();
      await ctx.hotState.close();
      await ctx.database.close();
    },
  };
}
