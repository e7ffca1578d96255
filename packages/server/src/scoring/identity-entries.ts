/**
 * The entries of the identity graph (identity-graph.ts): an account (a union-find node), a device
 * or payment hash (the first account that used it), an IP (its first few accounts), each a place
 * on the graph's least-recently-used list, and what each is charged against the budget.
 */
export const ACCOUNT = 0;
export const DEVICE = 1;
export const PAYMENT = 2;
export const IP = 3;
export type Kind = typeof ACCOUNT | typeof DEVICE | typeof PAYMENT | typeof IP;

/**
 * Estimated bytes per entry besides its key's characters (map slot, entry object, key string
 * headers; an account's node; an IP's two small arrays). Measured on Node 20 with keys shaped like
 * bench/soak.ts's: the most heap (after full collections) a full graph held while it evicted, per
 * entry, plus ~8 % so the budget holds however the entries mix. identity-graph.test.ts checks the
 * heap against the budget (the previous 280/170/170/310 let it hold up to 12 % more).
 */
export const ENTRY_BYTES: Readonly<Record<Kind, number>> = {
  [ACCOUNT]: 330,
  [DEVICE]: 230,
  [PAYMENT]: 230,
  [IP]: 370,
};
/** A place on the least-recently-used list (the list's head is a bare node). */
export interface LruNode {
  lp: LruNode;
  ln: LruNode;
}

/** An account: a union-find node and, while remembered, a member of its cluster's ring. */
export class Member implements LruNode {
  readonly kind = ACCOUNT;
  lp: LruNode = this;
  ln: LruNode = this;
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
  /** The earliest member (its account id keys the cluster). */
  keyMember: Member = this;
  keyFirst: number;
  devices = 0;
  payments = 0;
  ips = 0;

  constructor(
    /** The map key: site number, "a", account id. */
    readonly key: string,
    public first: number,
  ) {
    this.keyFirst = first;
  }

  get id(): string {
    return this.key.slice(this.key.indexOf('a') + 1);
  }
}

/** A device or payment hash: the first account that used it. */
export class LinkUse implements LruNode {
  lp: LruNode = this;
  ln: LruNode = this;
  /** A second account used it (counted once in the cluster's shared devices/payments). */
  shared = false;
  constructor(
    readonly kind: typeof DEVICE | typeof PAYMENT,
    readonly key: string,
    public first: Member,
  ) {}
}

/** An IP: its first accounts and when each last used it, until more than IP_FANOUT did. */
export class IpUse implements LruNode {
  readonly kind = IP;
  lp: LruNode = this;
  ln: LruNode = this;
  crowded = false;
  /** The member of the cluster where this IP is counted as shared; null while it links nobody. */
  counted: Member | null = null;
  constructor(
    readonly key: string,
    public members: Member[],
    public seen: number[],
  ) {}
}

export type Entry = Member | LinkUse | IpUse;
