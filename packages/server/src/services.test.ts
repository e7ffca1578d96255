import { randomBytes } from 'node:crypto';
import pino from 'pino';
import { Registry } from 'prom-client';
import { describe, expect, it } from 'vitest';
import { loadConfig } from './config.ts';
import type { DecisionRecord } from './decisions/packed-row.ts';
import type { IdentityService } from './scoring/identity.ts';
import { withServices } from './services.ts';
import { openTestDatabase, openTestHotState } from './testing/context.ts';
import { createSite, decisionRow } from './webhooks/test-fixtures.ts';

async function baseContext() {
  return {
    config: loadConfig({ WARDEN_LOG_LEVEL: 'silent', WARDEN_SEED_DEMO: '0' }),
    database: await openTestDatabase(),
    hotState: openTestHotState(),
    metrics: new Registry(),
    logger: pino({ level: 'silent' }),
    secret: randomBytes(32).toString('base64url'),
    now: Date.now,
  };
}

describe('createServices', () => {
  it("in a `serve --workers` worker, records decisions through the primary's commit and uses its identity graph", async () => {
    const base = await baseContext();
    const site = await createSite(base.database);
    const sent: DecisionRecord[] = [];
    const identity: IdentityService = {
      observe: async () => undefined,
      clusterOf: async () => undefined,
    } as unknown as IdentityService;
    const ctx = withServices({
      ...base,
      worker: {
        identity,
        commit: async (row) => {
          sent.push(row);
          return true;
        },
      },
    });
    const row = decisionRow(site);
    expect(await ctx.services.decisions.record(row)).toBe(true);
    expect(sent.map((r) => r.id)).toEqual([row.id]);
    // Committed elsewhere: nothing written by this process.
    expect(await ctx.services.decisions.byId(row.id)).toBeUndefined();
    expect(ctx.services.identity).toBe(identity);
    await base.database.close();
  });

  it('in one process, records decisions with its own writer', async () => {
    const base = await baseContext();
    const site = await createSite(base.database);
    const ctx = withServices(base);
    const row = decisionRow(site);
    expect(await ctx.services.decisions.record(row)).toBe(true);
    expect((await ctx.services.decisions.byId(row.id))?.id).toBe(row.id);
    await base.database.close();
  });
});
