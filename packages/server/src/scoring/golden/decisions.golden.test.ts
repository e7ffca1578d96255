import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { decisionById } from '../../decisions/transaction-queries.ts';
import { buildApp } from '../../http/app.ts';
import { createTestWorkspace } from '../../testing/accounts.ts';
import { createTestContext } from '../../testing/context.ts';
import { serverHeaders } from '../../testing/scoring-app.ts';
import { goldenRequests } from './golden-requests.ts';

/**
 * Decisions byte for byte: a generated set of /verify requests (golden-requests.ts) through the
 * whole app on a SQLite file (writer thread on), each answer and each recorded row (signals,
 * features, evidence, response) reduced to a hash and compared with decisions.golden.json.
 * Optimisations of the hot path must leave every decision as it was; a change to scoring that is
 * meant shows here, and the file is written again with WARDEN_UPDATE_GOLDEN=1 (with
 * WARDEN_GOLDEN_TEXT=<file> as well, the texts behind the hashes go to that file instead, to compare).
 * Random parts are replaced before hashing: ids (UUIDs, and cluster ids, which derive from the
 * random site id) by their order of appearance, challenge
 * salts and ids, decision_ms (a duration).
 */
const GOLDEN = path.join(path.dirname(fileURLToPath(import.meta.url)), 'decisions.golden.json');
const START = 1_700_000_000_000;
const SECRET = 'golden-test-instance-secret-0123456789abcdef';

interface Outcome {
  status: number;
  action: string | null;
  risk: number | null;
  hash: string;
}

function normaliser(): (text: string) => string {
  const ids = new Map<string, string>();
  return (text) =>
    text
      .replace(/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}|cl_[0-9a-f]+/g, (id) => {
        if (!ids.has(id)) ids.set(id, `id${ids.size}`);
        return ids.get(id)!;
      })
      // Also inside the recorded response, a JSON string in the row (quotes escaped there).
      .replace(/(\\?"(?:salt|challenge|challenge_id)\\?":\\?")[^"\\]*/g, '$1-')
      .replace(/(\\?"decision_ms\\?":)[0-9.e-]+/g, '$10');
}

async function run(): Promise<Outcome[]> {
  let clock = START;
  const ctx = await createTestContext({ sqliteFile: true, now: () => clock });
  ctx.secret = SECRET;
  const app = await buildApp(ctx);
  await app.ready();
  try {
    const w = await createTestWorkspace(ctx, { plan: 'pro' });
    const normalise = normaliser();
    const outcomes: Outcome[] = [];
    for (const { body, advance } of goldenRequests(160, START)) {
      clock += advance * 1000;
      const res = await app.inject({
        method: 'POST',
        url: '/api/antibot/verify',
        headers: serverHeaders(w.site),
        payload: body,
      });
      const json = res.json() as { data?: Record<string, unknown>; error?: { code: string } };
      const parts = [String(res.statusCode), normalise(JSON.stringify(json.data ?? json.error))];
      const id = json.data?.request_id;
      if (typeof id === 'string' && res.statusCode === 201) {
        // The row as recorded, its packed JSON parts unpacked in their column places.
        const row = await decisionById(ctx.database.db, id);
        if (!row) throw new Error(`decision ${id} not recorded`);
        const unpacked: Record<string, unknown> = { ...row };
        const stored = Object.keys(row)
          .filter((column) => column !== 'decision_ms' && !column.startsWith('packed'))
          .map((column) => [column, unpacked[column]]);
        parts.push(normalise(JSON.stringify(Object.fromEntries(stored))));
      }
      outcomes.push({
        status: res.statusCode,
        action: typeof json.data?.action === 'string' ? json.data.action : null,
        risk: typeof json.data?.risk_score === 'number' ? json.data.risk_score : null,
        ...(process.env.WARDEN_GOLDEN_TEXT ? { text: parts.join('\n') } : {}),
        hash: createHash('sha256').update(parts.join('\n')).digest('hex').slice(0, 16),
      });
    }
    return outcomes;
  } finally {
    await app.close();
    await ctx.hotState.close();
    await ctx.database.close();
  }
}

describe('decisions (golden)', () => {
  it('answers and records every generated request exactly as decisions.golden.json says', async () => {
    const outcomes = await run();
    if (process.env.WARDEN_UPDATE_GOLDEN === '1') {
      fs.writeFileSync(process.env.WARDEN_GOLDEN_TEXT ?? GOLDEN, `${JSON.stringify(outcomes, null, 2)}\n`);
    }
    const golden = JSON.parse(fs.readFileSync(GOLDEN, 'utf8')) as Outcome[];
    // Some of each kind, or the set would not test much.
    const statuses = new Set(outcomes.map((o) => o.status));
    expect([...statuses].sort()).toEqual([200, 201, 409]);
    expect(new Set(outcomes.map((o) => o.action)).size).toBeGreaterThanOrEqual(4);
    expect(outcomes).toEqual(golden);
  }, 60_000);
});
