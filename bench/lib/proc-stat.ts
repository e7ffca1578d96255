/**
 * CPU time per thread and peak RSS of a process, read from Linux /proc (CPU time is what stays
 * comparable on a shared machine; wall-clock rates do not).
 * - /proc/<pid>/task/<tid>/stat: utime + stime in clock ticks (getconf CLK_TCK, 100 on Linux).
 * - /proc/<pid>/task/<tid>/comm: the thread's name. Node 20 names every thread "node"; the
 *   decision writer thread names itself `warden-writer` (decision-writer.worker.mjs).
 * - /proc/<pid>/status VmHWM: peak RSS, reset by writing 5 to /proc/<pid>/clear_refs.
 */
import fs from 'node:fs';

export const TICK_US = 1_000_000 / 100;

/**
 * `main`: the thread that runs HTTP (the process's main thread; with `serve --workers N`, each
 * worker's); `primary`: with workers, the primary's main thread (hot state, identity, commits).
 */
export type ThreadGroup = 'main' | 'primary' | 'writer' | 'others';

/** Ticks used so far by each live thread, by thread id. */
export type ThreadTicks = Map<number, { group: ThreadGroup; ticks: number }>;

/** The processes whose parent is `pid` (a `serve --workers` primary's workers). */
export function childrenOf(pid: number): number[] {
  const out: number[] = [];
  for (const entry of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = fs.readFileSync(`/proc/${entry}/stat`, 'utf8');
      if (Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]) === pid) out.push(Number(entry));
    } catch {
      // Gone meanwhile.
    }
  }
  return out;
}

/** Ticks of every thread of `pid` and of its child processes (the workers of `serve --workers`). */
export function readThreadTicks(pid: number): ThreadTicks {
  const children = childrenOf(pid);
  const out = readProcessTicks(pid, children.length > 0 ? 'primary' : 'main');
  for (const child of children) for (const [tid, t] of readProcessTicks(child, 'main')) out.set(tid, t);
  return out;
}

/**
 * Ticks of the threads of `pid` alone, its main thread as `mainGroup` (a benchmark reading itself:
 * run with tsx, it has a child process, esbuild's, that is no worker of its).
 */
export function readProcessTicks(pid: number, mainGroup: ThreadGroup = 'main'): ThreadTicks {
  const out: ThreadTicks = new Map();
  let tids: string[];
  try {
    tids = fs.readdirSync(`/proc/${pid}/task`);
  } catch {
    return out;
  }
  for (const tid of tids) {
    try {
      const stat = fs.readFileSync(`/proc/${pid}/task/${tid}/stat`, 'utf8');
      // Fields after the name "(comm)": state is field 3, utime 14, stime 15.
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      const ticks = Number(fields[11]) + Number(fields[12]);
      const comm = fs.readFileSync(`/proc/${pid}/task/${tid}/comm`, 'utf8').trim();
      const group: ThreadGroup =
        Number(tid) === pid ? mainGroup : comm === 'warden-writer' ? 'writer' : 'others';
      out.set(Number(tid), { group, ticks });
    } catch {
      // The thread ended between readdir and read.
    }
  }
  return out;
}

/** CPU µs per thread group between two readings (threads that ended in between are lost). */
export function cpuSince(before: ThreadTicks, after: ThreadTicks): Record<ThreadGroup, number> {
  const out: Record<ThreadGroup, number> = { main: 0, primary: 0, writer: 0, others: 0 };
  for (const [tid, now] of after) {
    const was = before.get(tid)?.ticks ?? 0;
    out[now.group] += (now.ticks - was) * TICK_US;
  }
  return out;
}

/** CPU µs of each thread between two readings, busiest first (for --threads). */
export function threadsSince(
  before: ThreadTicks,
  after: ThreadTicks,
): { tid: number; group: ThreadGroup; us: number }[] {
  return [...after]
    .map(([tid, now]) => ({
      tid,
      group: now.group,
      us: (now.ticks - (before.get(tid)?.ticks ?? 0)) * TICK_US,
    }))
    .filter((t) => t.us > 0)
    .sort((a, b) => b.us - a.us);
}

function statusKb(pid: number, field: string): number {
  const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
  const match = new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(status);
  return match ? Number(match[1]) : Number.NaN;
}

const tree = (pid: number) => [pid, ...childrenOf(pid)];
/** Peak RSS in MB since start or the last resetPeakRss (a primary and its workers: their sum). */
export const peakRssMb = (pid: number) => tree(pid).reduce((sum, p) => sum + statusKb(p, 'VmHWM'), 0) / 1024;
export const rssMb = (pid: number) => tree(pid).reduce((sum, p) => sum + statusKb(p, 'VmRSS'), 0) / 1024;

/** Start a new peak-RSS window; false where the kernel does not allow it. */
export function resetPeakRss(pid: number): boolean {
  try {
    for (const p of tree(pid)) fs.writeFileSync(`/proc/${p}/clear_refs`, '5');
    return true;
  } catch {
    return false;
  }
}
