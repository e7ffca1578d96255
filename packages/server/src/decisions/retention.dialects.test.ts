import { pino } from 'pino';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ExpirySweeper } from '../housekeeping/expiry-sweeper.ts';
import type { Database } from '../storage/db.ts';
import type { DecisionsTable } from '../storage/scoring-schema.ts';
import { openTestDatabase, testDialects } from '../testing/context.ts';
import { deleteDeliveriesOfDecisions, deliveryRow } from '../webhooks/outbox.ts';
import { createSite, decisionRow, type SiteFixture } from '../webhooks/test-fixtures.ts';
import { insertDecisionRows } from './decision-insert.ts';
import { packDecision, unpackDecision } from './packed-row.ts';
import { oldestWithEvidence, sweepRetention } from './retention.ts';

const DAY = 24 * 60 * 60 * 1000;
const NOW = Date.UTC(2027, 0, 1);
const SETTINGS = { decisionDays: 365, evidenceDays: 30 };

/** A decision `age` days old, packed with some evidence (or in the JSON columns before packing). */
function aged(site: SiteFixture, id: string, age: number, legacy = false): DecisionsTable {
  const row = decisionRow(site, { id, created_at: NOW - age * DAY });
  const evidence = { device: { id: 'dev_abc' }, fingerprint: { canvas: id } };
  if (legacy) return { ...row, evidence: JSON.stringify(evidence), response: '{"legacy":true}' };
  const parts = packDecision(row, {
    features: { ip: { country: 'DE' }, surface: 'server' },
    evidence,
    ruleInput: null,
    answer: { legacy: false },
  });
  return { ...row, ...parts };
}

describe.each(testDialects())('decision retention on %s', (dialect) => {
  let database: Database;
  let site: SiteFixture;
  beforeEach(async () => {
    database = await openTestDatabase(dialect);
    site = await createSite(database, 'pro');
  });
  afterEach(() => database.close());

  async function stored(id: string) {
    const row = await database.db.selectFrom('decisions').selectAll().where('id', '=', id).executeTakeFirst();
    return row && { ...unpackDecision(row), packed: row.packed ?? null };
  }

  it('deletes decisions past the decision period and drops evidence past the evidence period, in chunks', async () => {
    const rows = [
      ...Array.from({ length: 23 }, (_, i) => aged(site, `gone_${i}`, 400 + i, i % 3 === 0)),
      ...Array.from({ length: 17 }, (_, i) => aged(site, `bare_${i}`, 40 + i, i % 4 === 0)),
      aged(site, 'fresh', 2),
      aged(site, 'fresh_legacy', 2, true),
    ];
    await insertDecisionRows(database.db, rows);
    const deliveries = ['gone_0', 'gone_5', 'fresh'].map((id) =>
      deliveryRow(rows.find((r) => r.id === id)!, NOW),
    );
    await database.db.insertInto('webhook_deliveries').values(deliveries).execute();
    let turns = 0;
    const forgotten: string[] = [];
    const result = await sweepRetention(
      database.db,
      SETTINGS,
      NOW,
      async (ids) => {
        forgotten.push(...ids);
        await deleteDeliveriesOfDecisions(database.db, ids);
      },
      5,
      async () => {
        turns++;
      },
    );
    // Evidence of the 17 + 23 rows older than 30 days, then the 23 older than 365 days deleted.
    expect(result).toEqual({ evidenceDropped: 40, decisionsDeleted: 23 });
    // 5 rows a statement: 8 evidence chunks and 5 delete chunks, a turn given back between them.
    expect(turns).toBeGreaterThanOrEqual(10);
    expect(forgotten.sort()).toEqual(
      rows
        .filter((r) => r.id.startsWith('gone_'))
        .map((r) => r.id)
        .sort(),
    );
    const left = await database.db.selectFrom('decisions').select('id').orderBy('id').execute();
    expect(left.map((r) => r.id)).toEqual(
      [...rows.filter((r) => !r.id.startsWith('gone_')).map((r) => r.id)].sort(),
    );
    const outbox = await database.db.selectFrom('webhook_deliveries').select('decision_id').execute();
    expect(outbox.map((d) => d.decision_id)).toEqual(['fresh']);

    // A decision past the evidence period keeps everything but its evidence; a recent one all.
    const bare = await stored('bare_1');
    expect(bare).toMatchObject({ evidence: '{}', features: '{"ip":{"country":"DE"},"surface":"server"}' });
    expect(bare?.packed).not.toBeNull();
    expect(await stored('bare_0')).toMatchObject({ evidence: '{}', response: '{"legacy":true}' });
    expect(JSON.parse((await stored('fresh'))!.evidence)).toMatchObject({ fingerprint: { canvas: 'fresh' } });
    expect(JSON.parse((await stored('fresh_legacy'))!.evidence)).toMatchObject({
      fingerprint: { canvas: 'fresh_legacy' },
    });

    // A second round finds nothing left to do.
    expect(await sweepRetention(database.db, SETTINGS, NOW, async () => {})).toEqual({
      evidenceDropped: 0,
      decisionsDeleted: 0,
    });
  });

  it("runs in the scoring sweeper's rounds, with the webhook outbox rows of what it deletes", async () => {
    const old = aged(site, 'old', 500);
    await insertDecisionRows(database.db, [old, aged(site, 'recent', 1)]);
    await database.db.insertInto('webhook_deliveries').values(deliveryRow(old, NOW)).execute();
    const sweeper = new ExpirySweeper({
      writes: () => database.db,
      logger: pino({ level: 'silent' }),
      now: () => NOW,
      retention: SETTINGS,
    });
    await sweeper.sweep();
    const left = await database.db.selectFrom('decisions').select('id').execute();
    expect(left.map((r) => r.id)).toEqual(['recent']);
    expect(await database.db.selectFrom('webhook_deliveries').selectAll().execute()).toEqual([]);
  });

  it('keeps everything when the periods are for ever', async () => {
    await insertDecisionRows(database.db, [
      aged(site, 'ancient', 5000),
      aged(site, 'ancient_legacy', 5000, true),
    ]);
    const result = await sweepRetention(
      database.db,
      { decisionDays: null, evidenceDays: null },
      NOW,
      async () => {},
    );
    expect(result).toEqual({ evidenceDropped: 0, decisionsDeleted: 0 });
    expect(JSON.parse((await stored('ancient'))!.evidence)).toHaveProperty('fingerprint');
  });
});

describe('decision retention on SQLite', () => {
  it('finds the evidence to drop on its partial index, not by scanning', async () => {
    const database = await openTestDatabase('sqlite');
    try {
      const query = oldestWithEvidence(database.db, NOW, 5).compile();
      const plan = database
        .sqlite!.prepare(`explain query plan ${query.sql}`)
        .all(...query.parameters) as Array<{ detail: string }>;
      expect(plan.map((r) => r.detail).join(' ')).toContain('decisions_evidence_time');
    } finally {
      await database.close();
    }
  });
});
