/**
 * The identity graph of one process (SPEC §2, §10), under a memory budget.
 *
 * Accounts are union-find nodes (union by weight, path compression): linking two accounts and
 * answering an account's cluster cost a few map operations, whatever the graph's size. Devices,
 * payment hashes and IPs are remembered only as far as linking needs: the first account that used
 * the value (and, for an IP, its first IP_FANOUT accounts). Every entry (account, device, payment,
 * IP) is charged an estimated size and kept on one least-recently-used list (intrusive links, so
 * marking an entry used moves no map entry); when the total passes the budget, the least recently
 * used entries are forgotten:
 * - a forgotten account leaves its cluster's member list and count (`linked_accounts` of the
 *   others drops by one); if it comes back through a still-remembered device, payment or IP it
 *   rejoins the same cluster, otherwise it starts alone;
 * - a forgotten device, payment hash or IP links nothing any more (a later account using it is not
 *   joined to the earlier ones) and no longer counts in `shared_*`; a forgotten crowded IP may link
 *   up to IP_FANOUT accounts again.
 * Links already made stay: clusters never split. The `decisions` table stays the record of what
 * was scored.
 *
 * A cluster's key is its earliest member (ties: the smaller id), so its `cluster_id` stays the
 * same as the cluster grows and, when two clusters merge, the younger one's id gives way to the
 * older one's.
 */
import { countedAccount } from './account-key.ts';
import {
  ACCOUNT,
  DEVICE,
  ENTRY_BYTES,
  type Entry,
  IP,
  IpUse,
  LinkUse,
  type LruNode,
  Member,
  PAYMENT,
} from './identity-entries.ts';

export const IP_FANOUT = 3;
export const IP_RECENT_MS = 7 * 24 * 60 * 60 * 1000;

/**
 * Entries are spread over this many maps, so that no single map grows large: a large Map's
 * rehash (when it grows, or has filled up with deleted slots) copies every entry in one go.
 */
const SHARDS = 256;

export interface IdentityEvent {
  accountId: string;
  deviceId: string;
  paymentHash: string;
  ip: string;
  at: number;
}

export interface ClusterCounts {
  /** The earliest member's account id (the cluster id is derived from it). */
  key: string;
  /** Remembered members, this account included. */
  size: number;
  devices: number;
  payments: number;
  ips: number;
}

export interface GraphStats {
  entries: number;
  bytes: number;
  budgetBytes: number;
  evicted: number;
}

const NO_MEMBERS: Member[] = [];
const NO_TIMES: number[] = [];

function shardOf(key: string): number {
  let h = key.length;
  for (let i = 0; i < key.length; i++) h = (h * 31 + key.charCodeAt(i)) | 0;
  return h & (SHARDS - 1);
}

export class IdentityGraph {
  private readonly shards: Map<string, Entry>[] = Array.from({ length: SHARDS }, () => new Map());
  /** Head of the least-recently-used list: `ln` is the oldest entry, `lp` the newest. */
  private readonly lru: LruNode;
  private entries = 0;
  private bytes = 0;
  private evicted = 0;

  constructor(readonly budgetBytes: number) {
    const head = { lp: null, ln: null } as unknown as LruNode;
    head.lp = head;
    head.ln = head;
    this.lru = head;
  }

  stats(): GraphStats {
    return { entries: this.entries, bytes: this.bytes, budgetBytes: this.budgetBytes, evicted: this.evicted };
  }

  /**
   * Add one event's links (`site` is the caller's small number for the site). Idempotent. A
   * placeholder account (countedAccount) is no account: it links nothing.
   */
  observe(site: number, e: IdentityEvent): Member | null {
    if (!countedAccount(e.accountId)) return null;
    const prefix = String(site);
    const m = this.member(`${prefix}a${e.accountId}`, e.at);
    if (e.deviceId) this.link(`${prefix}d${e.deviceId}`, DEVICE, m);
    if (e.paymentHash) this.link(`${prefix}p${e.paymentHash}`, PAYMENT, m);
    if (e.ip) this.observeIp(`${prefix}i${e.ip}`, m, e.at);
    this.evictOverBudget();
    return m;
  }

  /** The remembered account, without marking it used. */
  peek(site: number, accountId: string): Member | null {
    const e = this.get(`${site}a${accountId}`);
    return e && e.kind === ACCOUNT ? e : null;
  }

  counts(m: Member): ClusterCounts {
    const r = find(m);
    return { key: r.keyMember.id, size: r.size, devices: r.devices, payments: r.payments, ips: r.ips };
  }

  /** Up to `limit` remembered members of m's cluster (account ids). */
  members(m: Member, limit: number): string[] {
    const start = find(m).ring;
    const out: string[] = [];
    if (!start) return out;
    let cur = start;
    do {
      out.push(cur.id);
      cur = cur.next;
    } while (cur !== start && out.length < limit);
    return out;
  }

  private get(key: string): Entry | undefined {
    return this.shards[shardOf(key)]!.get(key);
  }

  /** Mark an entry used: move it to the newest end of the list. */
  private touch(entry: Entry): void {
    const head = this.lru;
    if (head.lp === entry) return;
    entry.lp.ln = entry.ln;
    entry.ln.lp = entry.lp;
    entry.lp = head.lp;
    entry.ln = head;
    head.lp.ln = entry;
    head.lp = entry;
  }

  private add(entry: Entry): void {
    this.shards[shardOf(entry.key)]!.set(entry.key, entry);
    const head = this.lru;
    entry.lp = head.lp;
    entry.ln = head;
    head.lp.ln = entry;
    head.lp = entry;
    this.entries++;
    this.bytes += entry.key.length + ENTRY_BYTES[entry.kind];
  }

  private member(key: string, at: number): Member {
    const found = this.get(key);
    if (found?.kind === ACCOUNT) {
      this.touch(found);
      if (at < found.first) {
        found.first = at;
        const r = find(found);
        if (earlier(at, found.key, r.keyFirst, r.keyMember.key)) {
          r.keyMember = found;
          r.keyFirst = at;
        }
      }
      return found;
    }
    const m = new Member(key, at);
    this.add(m);
    return m;
  }

  private link(key: string, kind: typeof DEVICE | typeof PAYMENT, m: Member): void {
    const use = this.get(key) as LinkUse | undefined;
    if (!use) {
      this.add(new LinkUse(kind, key, m));
      return;
    }
    this.touch(use);
    if (use.first === m) return;
    if (use.first.evicted && use.first.key === m.key) {
      // The same account, forgotten and back: it rejoins the cluster the value links to.
      union(use.first, m);
      use.first = m;
      return;
    }
    union(use.first, m);
    if (!use.shared) {
      use.shared = true;
      const r = find(m);
      if (kind === DEVICE) r.devices++;
      else r.payments++;
    }
  }

  private observeIp(key: string, m: Member, at: number): void {
    const use = this.get(key) as IpUse | undefined;
    if (!use) {
      this.add(new IpUse(key, [m], [at]));
      return;
    }
    this.touch(use);
    if (use.crowded) return;
    const i = use.members.findIndex((o) => o === m || (o.evicted && o.key === m.key));
    if (i !== -1) {
      if (use.members[i] !== m) {
        union(use.members[i]!, m);
        use.members[i] = m;
      }
      if (at > use.seen[i]!) use.seen[i] = at;
      return;
    }
    if (use.members.length >= IP_FANOUT) {
      // A crowded address (office, carrier NAT): stop linking through it; earlier links stay.
      use.crowded = true;
      use.members = NO_MEMBERS;
      use.seen = NO_TIMES;
      return;
    }
    for (let j = 0; j < use.members.length; j++) {
      if (Math.abs(at - use.seen[j]!) > IP_RECENT_MS) continue;
      union(use.members[j]!, m);
      if (!use.counted) {
        use.counted = m;
        find(m).ips++;
      }
    }
    use.members.push(m);
    use.seen.push(at);
  }

  private evictOverBudget(): void {
    if (this.bytes <= this.budgetBytes) return;
    // Evict a little below the budget so that one full event does not evict on every call.
    const target = this.budgetBytes * 0.99;
    const head = this.lru;
    while (this.bytes > target && head.ln !== head) {
      const entry = head.ln as Entry;
      head.ln = entry.ln;
      entry.ln.lp = head;
      entry.lp = entry;
      entry.ln = entry;
      this.shards[shardOf(entry.key)]!.delete(entry.key);
      this.entries--;
      this.bytes -= entry.key.length + ENTRY_BYTES[entry.kind];
      this.evicted++;
      forget(entry);
    }
  }
}

/** Undo what an entry contributes to its cluster's counts and member ring. */
function forget(entry: Entry): void {
  if (entry.kind === ACCOUNT) {
    entry.evicted = true;
    const r = find(entry);
    r.size--;
    if (r.ring === entry) r.ring = entry.next === entry ? null : entry.next;
    entry.prev.next = entry.next;
    entry.next.prev = entry.prev;
    entry.next = entry;
    entry.prev = entry;
  } else if (entry.kind === IP) {
    if (entry.counted) find(entry.counted).ips--;
  } else if (entry.shared) {
    const r = find(entry.first);
    if (entry.kind === DEVICE) r.devices--;
    else r.payments--;
  }
}

/** Map keys of one site compare like the account ids they end with. */
function earlier(at: number, key: string, thanAt: number, thanKey: string): boolean {
  return at < thanAt || (at === thanAt && key < thanKey);
}

export function find(m: Member): Member {
  let root = m;
  while (root.parent) root = root.parent;
  // Path compression.
  let cur = m;
  while (cur.parent && cur.parent !== root) {
    const next: Member = cur.parent;
    cur.parent = root;
    cur = next;
  }
  return root;
}

function union(x: Member, y: Member): void {
  let a = find(x);
  let b = find(y);
  if (a === b) return;
  if (a.weight < b.weight) [a, b] = [b, a];
  b.parent = a;
  a.weight += b.weight;
  a.size += b.size;
  a.devices += b.devices;
  a.payments += b.payments;
  a.ips += b.ips;
  if (earlier(b.keyFirst, b.keyMember.key, a.keyFirst, a.keyMember.key)) {
    a.keyMember = b.keyMember;
    a.keyFirst = b.keyFirst;
  }
  // Splice the two member rings into one.
  if (a.ring && b.ring) {
    const an = a.ring.next;
    const bn = b.ring.next;
    a.ring.next = bn;
    bn.prev = a.ring;
    b.ring.next = an;
    an.prev = b.ring;
  } else if (!a.ring) a.ring = b.ring;
  b.ring = null;
}
