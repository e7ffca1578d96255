/**
 * The identity graph of one process (SPEC §2, §10), under a memory budget.
 *
 * Accounts are union-find nodes (union by weight, path compression): linking two accounts and
 * answering an account's cluster cost a few map operations, whatever the graph's size. Devices,
 * payment hashes and IPs are remembered only as far as linking needs: the first account that used
 * the value (and, for an IP, its first IP_FANOUT accounts). Every entry (account, device, payment,
 * IP) sits in one map in least-recently-used order and is charged an estimated size; when the
 * total passes the budget, the least recently used entries are forgotten:
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
export const IP_FANOUT = 3;
export const IP_RECENT_MS = 7 * 24 * 60 * 60 * 1000;

const ACCOUNT = 0;
const DEVICE = 1;
const PAYMENT = 2;
const IP = 3;
type Kind = typeof ACCOUNT | typeof DEVICE | typeof PAYMENT | typeof IP;
const KIND_CHAR = ['a', 'd', 'p', 'i'] as const;

/**
 * Estimated bytes per entry besides its key (map slot, entry object; an account's node; an IP's
 * two small arrays), measured with `bench/identity.ts` on Node 20 and rounded up.
 */
export const ENTRY_BYTES: Readonly<Record<Kind, number>> = {
  [ACCOUNT]: 220,
  [DEVICE]: 90,
  [PAYMENT]: 90,
  [IP]: 170,
};

export interface IdentityEvent {
  accountId: string;
  deviceId: string;
  paymentHash: string;
  ip: string;
  at: number;
}

/** An account: a union-find node and, while remembered, a member of its cluster's ring. */
export class Member {
  readonly kind = ACCOUNT;
  parent: Member | null = null;
  /** Ring of the remembered members of one cluster (doubly linked, circular). */
  next: Member = this;
  prev: Member = this;
  evicted = false;
  // Valid on roots only.
  /** Remembered members. */
  size = 1;
  /** Members ever joined (union by weight keeps the trees shallow). */
  weight = 1;
  /** One remembered member (where the ring is walked from); null when none is left. */
  ring: Member | null = this;
  key: string;
  keyFirst: number;
  devices = 0;
  payments = 0;
  ips = 0;

  constructor(
    readonly id: string,
    public first: number,
  ) {
    this.key = id;
    this.keyFirst = first;
  }
}

/** A device or payment hash: the first account that used it. */
interface LinkUse {
  readonly kind: typeof DEVICE | typeof PAYMENT;
  first: Member;
  /** A second account used it (counted once in the cluster's shared devices/payments). */
  shared: boolean;
}

/** An IP: its first accounts and when each last used it, until more than IP_FANOUT did. */
interface IpUse {
  readonly kind: typeof IP;
  members: Member[];
  seen: number[];
  crowded: boolean;
  /** The member of the cluster where this IP is counted as shared; null while it links nobody. */
  counted: Member | null;
}

type Entry = Member | LinkUse | IpUse;

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

export class IdentityGraph {
  /** Every entry of every site, least recently used first. */
  private readonly entries = new Map<string, Entry>();
  private bytes = 0;
  private evicted = 0;

  constructor(readonly budgetBytes: number) {}

  stats(): GraphStats {
    return {
      entries: this.entries.size,
      bytes: this.bytes,
      budgetBytes: this.budgetBytes,
      evicted: this.evicted,
    };
  }

  /** Add one event's links (`site` is the caller's small number for the site). Idempotent. */
  observe(site: number, e: IdentityEvent): Member | null {
    if (!e.accountId) return null;
    const prefix = String(site);
    const m = this.member(prefix, e.accountId, e.at);
    if (e.deviceId) this.link(prefix, DEVICE, e.deviceId, m);
    if (e.paymentHash) this.link(prefix, PAYMENT, e.paymentHash, m);
    if (e.ip) this.observeIp(prefix, e.ip, m, e.at);
    this.evictOverBudget();
    return m;
  }

  /** The remembered account, without marking it used. */
  peek(site: number, accountId: string): Member | null {
    const e = this.entries.get(`${site}a${accountId}`);
    return e && e.kind === ACCOUNT ? e : null;
  }

  counts(m: Member): ClusterCounts {
    const r = find(m);
    return { key: r.key, size: r.size, devices: r.devices, payments: r.payments, ips: r.ips };
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

  private touch(key: string, entry: Entry): void {
    this.entries.delete(key);
    this.entries.set(key, entry);
  }

  private add(key: string, entry: Entry): void {
    this.entries.set(key, entry);
    this.bytes += key.length + ENTRY_BYTES[entry.kind];
  }

  private member(prefix: string, id: string, at: number): Member {
    const key = `${prefix}a${id}`;
    const found = this.entries.get(key);
    if (found?.kind === ACCOUNT) {
      this.touch(key, found);
      if (at < found.first) {
        found.first = at;
        const r = find(found);
        if (earlier(at, id, r.keyFirst, r.key)) {
          r.key = found.id;
          r.keyFirst = at;
        }
      }
      return found;
    }
    const m = new Member(id, at);
    this.add(key, m);
    return m;
  }

  private link(prefix: string, kind: typeof DEVICE | typeof PAYMENT, value: string, m: Member): void {
    const key = `${prefix}${KIND_CHAR[kind]}${value}`;
    const use = this.entries.get(key) as LinkUse | undefined;
    if (!use) {
      this.add(key, { kind, first: m, shared: false });
      return;
    }
    this.touch(key, use);
    if (use.first === m) return;
    if (use.first.evicted && use.first.id === m.id) {
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

  private observeIp(prefix: string, ip: string, m: Member, at: number): void {
    const key = `${prefix}i${ip}`;
    const use = this.entries.get(key) as IpUse | undefined;
    if (!use) {
      this.add(key, { kind: IP, members: [m], seen: [at], crowded: false, counted: null });
      return;
    }
    this.touch(key, use);
    if (use.crowded) return;
    const i = use.members.findIndex((o) => o === m || (o.evicted && o.id === m.id));
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
    const target = this.budgetBytes * 0.98;
    const it = this.entries.entries();
    while (this.bytes > target) {
      const next = it.next();
      if (next.done) break;
      const [key, entry] = next.value;
      this.entries.delete(key);
      this.bytes -= key.length + ENTRY_BYTES[entry.kind];
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

function earlier(at: number, id: string, thanAt: number, thanId: string): boolean {
  return at < thanAt || (at === thanAt && id < thanId);
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
  if (earlier(b.keyFirst, b.key, a.keyFirst, a.key)) {
    a.key = b.key;
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
