/**
 * The server's own view of where a /verify request's time went, read from its /metrics: the
 * histograms of the request timeline (`warden_decision_stage_seconds` by stage), the group commit
 * (`warden_commit_batch_size`, `warden_commit_wait_seconds`, `warden_commit_seconds`), the writer
 * thread's side of it (`warden_writer_thread_seconds`), the WAL checkpoints
 * (`warden_wal_checkpoint_seconds`) and the main thread's GC pauses (`nodejs_gc_duration_seconds`), as the difference between two scrapes (one
 * benchmark phase). Quantiles are the upper bounds of Prometheus buckets: coarse, but the server's.
 */
const TIMELINE_METRICS = [
  'warden_decision_stage_seconds',
  'warden_commit_wait_seconds',
  'warden_commit_seconds',
  'warden_commit_batch_size',
  'warden_writer_thread_seconds',
  'warden_writer_group_batches',
  'warden_wal_checkpoint_seconds',
  'nodejs_gc_duration_seconds',
] as const;

/** Per histogram series (name and labels but `le`): cumulative bucket counts by bound, sum, count. */
export type MetricsSnapshot = Map<string, { buckets: Map<number, number>; sum: number; count: number }>;

const LINE = /^(\w+?)(_bucket|_sum|_count)\{?([^}]*)\}? ([0-9.e+-]+|\+Inf|NaN)$/;

export async function scrapeTimeline(baseUrl: string): Promise<MetricsSnapshot> {
  const text = await (await fetch(`${baseUrl}/metrics`)).text();
  const out: MetricsSnapshot = new Map();
  for (const line of text.split('\n')) {
    const match = LINE.exec(line);
    if (!match || !(TIMELINE_METRICS as readonly string[]).includes(match[1]!)) continue;
    const [, name, part, labelText = '', value] = match;
    const labels = labelText.split(',').filter((l) => l && !l.startsWith('le='));
    const series = `${name}${labels.length > 0 ? `{${labels.join(',')}}` : ''}`;
    let entry = out.get(series);
    if (!entry) {
      entry = { buckets: new Map(), sum: 0, count: 0 };
      out.set(series, entry);
    }
    if (part === '_sum') entry.sum = Number(value);
    else if (part === '_count') entry.count = Number(value);
    else {
      const le = /le="([^"]+)"/.exec(labelText)?.[1];
      entry.buckets.set(le === '+Inf' ? Number.POSITIVE_INFINITY : Number(le), Number(value));
    }
  }
  return out;
}

/** The bucket bound at or below which `p` % of the phase's observations fall. */
function quantile(buckets: Array<[number, number]>, count: number, p: number): number {
  const wanted = (p / 100) * count;
  for (const [bound, cumulative] of buckets) if (cumulative >= wanted) return bound;
  return Number.POSITIVE_INFINITY;
}

const isSeconds = (series: string) => series.includes('_seconds');
const show = (v: number, seconds: boolean) =>
  !Number.isFinite(v) ? 'more' : seconds ? `${+(v * 1000).toPrecision(3)} ms` : String(+v.toPrecision(3));

/** One line per series that saw observations between the two scrapes. */
export function timelineReport(before: MetricsSnapshot, after: MetricsSnapshot): string[] {
  const lines: string[] = [];
  for (const [series, now] of after) {
    const was = before.get(series);
    const count = now.count - (was?.count ?? 0);
    if (count <= 0) continue;
    const sum = now.sum - (was?.sum ?? 0);
    const buckets = [...now.buckets]
      .map(([bound, c]): [number, number] => [bound, c - (was?.buckets.get(bound) ?? 0)])
      .sort((a, b) => a[0] - b[0]);
    const seconds = isSeconds(series);
    lines.push(
      `${series.padEnd(58)} n ${String(count).padStart(7)}  mean ${show(sum / count, seconds).padStart(9)}  ` +
        `p50 ≤ ${show(quantile(buckets, count, 50), seconds).padStart(8)}  p99 ≤ ${show(quantile(buckets, count, 99), seconds).padStart(8)}  ` +
        `p99.9 ≤ ${show(quantile(buckets, count, 99.9), seconds).padStart(8)}`,
    );
  }
  if (lines.length === 0) lines.push('(no timeline metrics: a build without them)');
  return lines;
}

/** The upper bound of the highest bucket of `series` that saw an observation between two scrapes (0: none). */
export function slowestBound(before: MetricsSnapshot, after: MetricsSnapshot, series: string): number {
  const now = after.get(series);
  if (!now) return 0;
  const was = before.get(series);
  let below = 0;
  let slowest = 0;
  for (const [bound, cumulative] of [...now.buckets].sort((a, b) => a[0] - b[0])) {
    const count = cumulative - (was?.buckets.get(bound) ?? 0);
    if (count > below) slowest = bound;
    below = count;
  }
  return slowest;
}
