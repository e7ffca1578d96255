import type { Signal } from '@warden/protocol';
import { sql } from 'kysely';
import type { WriterMetrics } from '../metrics.ts';
import type { Database } from '../storage/db.ts';
import type { DecisionsTable, IdempotencyKeysTable } from '../storage/scoring-schema.ts';
import type { OutboxSignal } from '../webhooks/outbox.ts';
import { ClusterDecisions } from './cluster-queries.ts';
import type {
  DecisionAggregate,
  DecisionCursor,
  DecisionLog,
  HourlyCounts,
  LabelTarget,
} from './decision-log.ts';
import { DecisionWriter, type RemoteCommit } from './decision-writer.ts';
import { HistoryDecisions } from './history-queries.ts';
import { type DecisionRecord, PACKED_COLUMNS, type PackedColumns, unpackDecision } from './packed-row.ts';
import { RuleDecisions } from './rule-queries.ts';
import {
  type DecisionDialect,
  type DecisionFilters,
  decisionConditions,
  POSTGRES_DECISIONS,
  SQLITE_DECISIONS,
} from './search.ts';
import { decisionById } from './transaction-queries.ts';

const HOUR_MS = 3_600_000;

/** Of a packed row read for `columns`: those columns, `signals` and `user_agent` as recorded. */
function withColumns(row: PackedColumns, columns: readonly string[]): Record<string, unknown> {
  const { signals, user_agent } = unpackDecision(row);
  const all: Record<string, unknown> = { ...row, signals, user_agent };
  return Object.fromEntries([...columns, 'id', 'created_at'].map((c) => [c, all[c]]));
}

/**
 * The decision log on Kysely: one set of queries, with what the dialects write differently (JSON
 * functions) given by the subclass.
 */
abstract class KyselyDecisionLog implements DecisionLog {
  protected abstract readonly dialect: DecisionDialect;
  private writerInstance: DecisionWriter | undefined;
  readonly clusters: ClusterDecisions;
  readonly rules: RuleDecisions;
  readonly history: HistoryDecisions;

  constructor(
    protected readonly database: Database,
    private readonly outbox: OutboxSignal,
    /** A `serve --workers` worker's commit on the primary (its writer group-commits every worker's). */
    private readonly remote?: RemoteCommit,
    private readonly metrics?: WriterMetrics,
  ) {
    this.clusters = new ClusterDecisions(database);
    this.rules = new RuleDecisions(database);
    this.history = new HistoryDecisions(database);
  }

  get writer(): DecisionWriter {
    this.writerInstance ??= new DecisionWriter(this.database, this.outbox, this.remote, this.metrics);
    return this.writerInstance;
  }

  record(row: DecisionRecord, key?: IdempotencyKeysTable, signals?: readonly Signal[]): Promise<boolean> {
    return this.writer.write(row, key, signals);
  }

  byId(id: string): Promise<DecisionsTable | undefined> {
    return decisionById(this.database.db, id);
  }

  checkFilters(filters: DecisionFilters): void {
    decisionConditions(this.dialect, filters);
  }

  async page<C extends keyof DecisionsTable>(
    filters: DecisionFilters,
    columns: readonly C[],
    limit: number,
    after?: DecisionCursor,
  ): Promise<Array<Pick<DecisionsTable, C | 'created_at' | 'id'>>> {
    // A packed row stores its signals' descriptions and its user agent in the body: read it too.
    const restored = columns.some((c) => c === 'signals' || c === 'user_agent');
    const selected = restored ? [...new Set([...columns, ...PACKED_COLUMNS])] : columns;
    let q = this.database.db
      .selectFrom('decisions')
      .select(selected as readonly (keyof DecisionsTable)[])
      .where(decisionConditions(this.dialect, filters));
    if (after) {
      q = q.where((eb) =>
        eb.or([
          eb('created_at', '<', after.createdAt),
          eb.and([eb('created_at', '=', after.createdAt), eb('id', '<', after.id)]),
        ]),
      );
    }
    const rows = await q.orderBy('created_at', 'desc').orderBy('id', 'desc').limit(limit).execute();
    return (restored
      ? rows.map((row) => withColumns(row as PackedColumns, columns))
      : rows) as unknown as Array<Pick<DecisionsTable, C | 'created_at' | 'id'>>;
  }

  async label(id: string, label: 'fraud' | 'legit', at: number): Promise<void> {
    await this.database.db
      .updateTable('decisions')
      .set({ label, labeled_at: at })
      .where('id', '=', id)
      .execute();
  }

  labelTargets(ids: readonly string[]): Promise<LabelTarget[]> {
    return this.database.db
      .selectFrom('decisions')
      .select(['id', 'site_id', 'label'])
      .where('id', 'in', ids)
      .execute();
  }

  async hourlyCounts(siteId: string, from: number, to: number): Promise<HourlyCounts> {
    const base = this.database.db
      .selectFrom('decisions')
      .where('site_id', '=', siteId)
      .where('created_at', '>=', from)
      .where('created_at', '<', to)
      // A protected submit counts once: a /verify that names the browser decision it verified
      // replaces it in the counts (the browser decision is left out).
      .where(({ not, exists, selectFrom }) =>
        not(
          exists(
            selectFrom('decisions as verified')
              .select(sql.lit(1).as('one'))
              .whereRef('verified.browser_decision_id', '=', 'decisions.id'),
          ),
        ),
      );
    const hour = sql<number>`created_at / ${sql.lit(HOUR_MS)}`;
    const [byEventType, byClassification, byAction] = await Promise.all([
      base
        .select(['event_type as k', (e) => e.fn.countAll<number>().as('n')])
        .groupBy('event_type')
        .execute(),
      base
        .select([hour.as('h'), 'classification', (e) => e.fn.countAll<number>().as('n')])
        .groupBy([hour, 'classification'])
        .execute(),
      base
        .select([hour.as('h'), 'action', (e) => e.fn.countAll<number>().as('n')])
        .groupBy([hour, 'action'])
        .execute(),
    ]);
    const num = <T extends { n: number }>(rows: T[]) => rows.map((r) => ({ ...r, n: Number(r.n) }));
    return {
      byEventType: num(byEventType),
      byClassification: num(byClassification).map((r) => ({ ...r, h: Number(r.h) })),
      byAction: num(byAction).map((r) => ({ ...r, h: Number(r.h) })),
    };
  }

  async aggregate(filters: DecisionFilters): Promise<DecisionAggregate> {
    const where = decisionConditions(this.dialect, filters);
    const base = () => this.database.db.selectFrom('decisions').where(where);
    const [totals, groups, clusters, latest] = await Promise.all([
      base()
        .select((eb) => [
          eb.fn.countAll().as('total'),
          eb.fn.min('created_at').as('first'),
          eb.fn.max('created_at').as('last'),
          eb.fn.count('account_id').distinct().as('accounts'),
          eb.fn.count('ip_address').distinct().as('ips'),
          eb.fn
            .count(eb.fn('nullif', ['device_id', eb.val('')]))
            .distinct()
            .as('devices'),
        ])
        .executeTakeFirstOrThrow(),
      base()
        .select((eb) => ['classification', 'action', 'label', eb.fn.countAll().as('n')])
        .groupBy(['classification', 'action', 'label'])
        .execute(),
      base()
        .select('cluster_id')
        .distinct()
        .where('cluster_id', 'is not', null)
        .orderBy('cluster_id')
        .limit(20)
        .execute(),
      base()
        .select(PACKED_COLUMNS)
        .orderBy('created_at', 'desc')
        .orderBy('id', 'desc')
        .limit(1)
        .executeTakeFirst(),
    ]);
    const at = (v: unknown) => (v === null || v === undefined ? null : Number(v));
    const recorded = latest && unpackDecision(latest);
    return {
      total: Number(totals.total),
      first: at(totals.first),
      last: at(totals.last),
      accounts: Number(totals.accounts),
      ips: Number(totals.ips),
      devices: Number(totals.devices),
      groups: groups.map((g) => ({
        classification: g.classification,
        action: g.action,
        label: g.label,
        n: Number(g.n),
      })),
      clusters: clusters.map((c) => c.cluster_id as string),
      // The features (the IP's network: a packed row's facets hold only what SQL reads of it) and
      // the user agent, as recorded.
      latest: recorded && { features: recorded.features, user_agent: recorded.user_agent },
    };
  }
}

/** The embedded default: SQLite's JSON1 functions. */
export class SqliteDecisionLog extends KyselyDecisionLog {
  protected readonly dialect = SQLITE_DECISIONS;
}

/** Scale mode: PostgreSQL's json operators. */
export class PostgresDecisionLog extends KyselyDecisionLog {
  protected readonly dialect = POSTGRES_DECISIONS;
}
