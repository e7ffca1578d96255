import type { Signal } from '@warden/protocol';
import type { DecisionsTable, IdempotencyKeysTable } from '../storage/scoring-schema.ts';
import type { ClusterDecisions } from './cluster-queries.ts';
import type { DecisionWriter } from './decision-writer.ts';
import type { HistoryDecisions } from './history-queries.ts';
import type { DecisionRecord } from './packed-row.ts';
import type { RuleDecisions } from './rule-queries.ts';
import type { DecisionFilters } from './search.ts';

/** Where a page of decisions starts: after this (created_at, id), newest first. */
export interface DecisionCursor {
  createdAt: number;
  id: string;
}

/** Decisions counted by hour (epoch hours) in a window: by event type, by classification, by action. */
export interface HourlyCounts {
  byEventType: Array<{ k: string; n: number }>;
  byClassification: Array<{ h: number; classification: string; n: number }>;
  byAction: Array<{ h: number; action: string; n: number }>;
}

/** What the decisions matching some filters add up to (the entity summaries). */
export interface DecisionAggregate {
  total: number;
  first: number | null;
  last: number | null;
  accounts: number;
  ips: number;
  devices: number;
  groups: Array<{ classification: string; action: string; label: string | null; n: number }>;
  /** At most 20 cluster ids, in order. */
  clusters: string[];
  latest: { features: string; user_agent: string } | undefined;
}

/** A decision's site and current label (what a bulk label checks and reports). */
export interface LabelTarget {
  id: string;
  site_id: string;
  label: string | null;
}

/**
 * The decision log: the one module that reads and writes the `decisions` table (issue 13;
 * table-owner.test.ts fails on a query of it anywhere else). Routes, statistics, the entity
 * summaries, the rule tools, the cluster view and the start-up rebuilds call its methods and its
 * query groups; SQLite and PostgreSQL implement it (kysely-decision-log.ts), under one conformance
 * suite (decision-log.dialects.test.ts). Queries run inside another module's transaction take that
 * executor instead (transaction-queries.ts, key-queries.ts, decision-insert.ts).
 */
export interface DecisionLog {
  /**
   * Record a decision with its outbox row and its idempotency key row in one transaction (group
   * commit, decisions/decision-writer.ts). False: the key was taken by another decision meanwhile,
   * and nothing was written. `signals`: the array `row.signals` was serialised from, when the
   * caller has it (the webhook payload is built from it instead of parsing the column back).
   */
  record(row: DecisionRecord, key?: IdempotencyKeysTable, signals?: readonly Signal[]): Promise<boolean>;
  /** The group-commit writer (its thread on a SQLite file), created on first use. */
  readonly writer: DecisionWriter;
  byId(id: string): Promise<DecisionsTable | undefined>;
  /** Throws the 400 of bad filter values (before a stream starts, say). */
  checkFilters(filters: DecisionFilters): void;
  /** Up to `limit` matching decisions, newest first, after `after`. */
  page<C extends keyof DecisionsTable>(
    filters: DecisionFilters,
    columns: readonly C[],
    limit: number,
    after?: DecisionCursor,
  ): Promise<Array<Pick<DecisionsTable, C | 'created_at' | 'id'>>>;
  /** Set (or replace) a decision's analyst label. */
  label(id: string, label: 'fraud' | 'legit', at: number): Promise<void>;
  /** The site and label of each of `ids` that exists (in no particular order). */
  labelTargets(ids: readonly string[]): Promise<LabelTarget[]>;
  /** The counts behind GET /api/stats, for `[from, to)`. */
  hourlyCounts(siteId: string, from: number, to: number): Promise<HourlyCounts>;
  /** Totals, distinct counts, groups, clusters and the latest row of the matching decisions. */
  aggregate(filters: DecisionFilters): Promise<DecisionAggregate>;
  /** What identity clusters read of the decisions (the cluster routes, entities/). */
  readonly clusters: ClusterDecisions;
  /** What custom rules read of the decisions (backtests, hit counts, rule statistics). */
  readonly rules: RuleDecisions;
  /** What the start-up rebuild of hot-state counters reads of the recent decisions. */
  readonly history: HistoryDecisions;
}
