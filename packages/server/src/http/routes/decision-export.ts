import type { DecisionSummary } from '@warden/protocol/management';
import type { DecisionsTable } from '../../storage/scoring-schema.ts';
import { decisionSummary, type EntityLabels, type SUMMARY_COLUMNS } from './decisions-schemas.ts';

/**
 * Rows of a decision export (GET /api/decisions/export): CSV with a header line, or JSON lines
 * (one decision summary per line). The route streams them page by page from the database.
 */
export const EXPORT_PAGE_SIZE = 500;

export const CSV_COLUMNS = [
  'id',
  'createdAt',
  'eventType',
  'accountId',
  'email',
  'ipAddress',
  'deviceId',
  'paymentHash',
  'promoCode',
  'clusterId',
  'riskScore',
  'riskLevel',
  'classification',
  'action',
  'signals',
  'label',
  'labeledAt',
  'userAgent',
  'rulesetVersion',
  'effectiveLabel',
  'labelSource',
] as const;

/**
 * One CSV field (RFC 4180). Text that a spreadsheet would run as a formula (= + - @, tab, CR
 * first) is prefixed with an apostrophe (OWASP CSV injection); numbers are written as they are.
 */
export function csvField(value: string | number | null): string {
  if (value === null) return '';
  if (typeof value === 'number') return String(value);
  const safe = /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
  return /[",\r\n]/.test(safe) ? `"${safe.replace(/"/g, '""')}"` : safe;
}

export function csvHeader(): string {
  return `${CSV_COLUMNS.join(',')}\r\n`;
}

/**
 * Where the effective label comes from: `decision` (its own label), `<kind>:<value>` of the entity
 * label (`account:acct_7`, `cluster:cl_…`), empty without one.
 */
function labelSource(d: DecisionSummary): string | null {
  if (d.label !== null) return 'decision';
  return d.entityLabel ? `${d.entityLabel.kind}:${d.entityLabel.value}` : null;
}

export function csvLine(d: DecisionSummary): string {
  const values: Record<(typeof CSV_COLUMNS)[number], string | number | null> = {
    ...d,
    labelSource: labelSource(d),
    signals: d.signals
      .filter((s) => s.score !== 0)
      .map((s) => s.rule)
      .join(' '),
  };
  return `${CSV_COLUMNS.map((c) => csvField(values[c])).join(',')}\r\n`;
}

export function jsonLine(d: DecisionSummary): string {
  return `${JSON.stringify(d)}\n`;
}

type Row = Pick<DecisionsTable, (typeof SUMMARY_COLUMNS)[number]>;

/**
 * The export's text, chunk by chunk: `nextPage(cursor)` reads one page from the database only
 * when the previous chunk has been consumed, so memory stays at one page whatever the size.
 */
export async function* exportChunks(
  format: 'csv' | 'json',
  nextPage: (cursor: string | undefined) => Promise<{ rows: Row[]; nextCursor: string | null }>,
  labels: EntityLabels,
): AsyncGenerator<string> {
  if (format === 'csv') yield csvHeader();
  const line = format === 'csv' ? csvLine : jsonLine;
  let cursor: string | undefined;
  do {
    const page = await nextPage(cursor);
    if (page.rows.length > 0) yield page.rows.map((r) => line(decisionSummary(r, labels))).join('');
    cursor = page.nextCursor ?? undefined;
  } while (cursor !== undefined);
}
