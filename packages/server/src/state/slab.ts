/**
 * A store of fixed-size records under a byte budget, with least-recently-used eviction: the
 * building block of the in-process hot state (memory.ts).
 *
 * Records live in typed arrays, not in one JavaScript object each: a record is a 52-bit key
 * (state/hash.ts), `doubles` numbers and `words` 32-bit integers, found through an
 * open-addressing index (linear probing, backward-shift deletion) and kept in recency order by
 * an intrusive doubly linked list (prev/next slot numbers). Every operation is O(1); the garbage
 * collector has nothing to trace. A record may own a "side" object (a string, a call log, a
 * sketch) whose approximate size the caller reports.
 *
 * The arrays start small and double up to the largest capacity whose arrays fit `slotBudget`
 * bytes; when full, the least recently used record makes room. Side objects are held to
 * `sideBudget` bytes the same way. So `bytes` (what the arrays take plus the side objects'
 * reported sizes) never exceeds slotBudget + sideBudget, whatever is stored (save one side object
 * larger than the whole side budget, which is then kept alone).
 */
export interface SlabOptions {
  /** Numbers per record (Float64). */
  doubles: number;
  /** 32-bit integers per record. */
  words?: number;
  /** Bytes the typed arrays may take at most. */
  slotBudget: number;
  /** Bytes side objects may take at most (0: the store keeps none). */
  sideBudget?: number;
  /** Records to start with (grows by doubling). */
  initialCapacity?: number;
}

const INDEX_BYTES = 4;

export class Slab<Side = unknown> {
  readonly doubles: number;
  readonly words: number;
  readonly maxCapacity: number;
  private readonly sideBudget: number;
  private capacity = 0;
  private keys = new Float64Array(0);
  /** doubles × capacity numbers: record `slot`'s start at slot × doubles. Reallocated on growth. */
  data = new Float64Array(0);
  /** words × capacity integers: record `slot`'s start at slot × words. Reallocated on growth. */
  ints = new Uint32Array(0);
  private prev = new Int32Array(0);
  private next = new Int32Array(0);
  private index = new Int32Array(0);
  private mask = 0;
  private readonly side: Array<Side | undefined> = [];
  private readonly sideSize: number[] = [];
  private sideBytes = 0;
  /** Most and least recently used records, -1 when empty. */
  private head = -1;
  private tail = -1;
  /** Slots [0, used) have been handed out at least once; freed ones are chained through `next`. */
  private used = 0;
  private free = -1;
  private sweepCursor = 0;
  size = 0;
  evictions = 0;

  constructor(options: SlabOptions) {
    this.doubles = options.doubles;
    this.words = options.words ?? 0;
    this.sideBudget = options.sideBudget ?? 0;
    this.maxCapacity = Math.max(16, largestCapacity(this.recordBytes(), options.slotBudget));
    this.resize(Math.min(this.maxCapacity, options.initialCapacity ?? 256));
  }

  /** Bytes now held: the typed arrays plus the side objects' reported sizes. */
  get bytes(): number {
    return arrayBytes(this.capacity, this.recordBytes()) + this.sideBytes;
  }

  /** The record with `key`, or -1. Does not count as a use. */
  find(key: number): number {
    const keys = this.keys;
    const index = this.index;
    for (let i = (key >>> 0) & this.mask; ; i = (i + 1) & this.mask) {
      const s = index[i] as number;
      if (s === 0) return -1;
      if (keys[s - 1] === key) return s - 1;
    }
  }

  /** Mark the record most recently used. */
  touch(slot: number): void {
    if (slot === this.head) return;
    this.unlink(slot);
    this.linkFirst(slot);
  }

  /**
   * A new record for `key` (which must not be stored), most recently used, its numbers and
   * integers zero. Makes room by growing or, at the budget, by dropping the least recently used.
   * `data` and `ints` may be new arrays afterwards.
   */
  insert(key: number): number {
    let slot: number;
    if (this.free >= 0) {
      slot = this.free;
      this.free = this.next[slot] as number;
    } else if (this.used < this.capacity) {
      slot = this.used++;
    } else if (this.capacity < this.maxCapacity) {
      this.resize(Math.min(this.maxCapacity, this.capacity * 2));
      slot = this.used++;
    } else {
      slot = this.tail;
      this.evictions++;
      this.detach(slot);
    }
    this.keys[slot] = key;
    this.data.fill(0, slot * this.doubles, (slot + 1) * this.doubles);
    if (this.words > 0) this.ints.fill(0, slot * this.words, (slot + 1) * this.words);
    this.indexInsert(slot);
    this.linkFirst(slot);
    this.size++;
    return slot;
  }

  /** Forget the record. */
  remove(slot: number): void {
    this.detach(slot);
    this.keys[slot] = 0;
    this.next[slot] = this.free;
    this.free = slot;
  }

  getSide(slot: number): Side | undefined {
    return this.side[slot];
  }

  /**
   * Attach (or replace, or with undefined drop) the record's side object of about `bytes` bytes;
   * then drop least recently used records, never this one, while side objects exceed their budget.
   */
  setSide(slot: number, value: Side | undefined, bytes: number): void {
    this.sideBytes += (value === undefined ? 0 : bytes) - (this.sideSize[slot] ?? 0);
    this.side[slot] = value;
    this.sideSize[slot] = value === undefined ? 0 : bytes;
    while (this.sideBytes > this.sideBudget && this.tail !== slot && this.tail >= 0) {
      this.evictions++;
      this.remove(this.tail);
    }
  }

  /**
   * Visit up to `slice` slots from where the last call stopped, dropping the records `expired`
   * names; a call that reaches the end starts from the beginning next time.
   */
  sweep(slice: number, expired: (slot: number) => boolean): void {
    for (let visited = 0; visited < slice; visited++) {
      if (this.sweepCursor >= this.used) {
        this.sweepCursor = 0;
        return;
      }
      const slot = this.sweepCursor++;
      if (this.keys[slot] !== 0 && expired(slot)) this.remove(slot);
    }
  }

  private recordBytes(): number {
    // key + numbers + integers + prev/next
    return 8 + 8 * this.doubles + 4 * this.words + 8;
  }

  /** Unlink from the recency list and the index, drop the side object (the slot stays taken). */
  private detach(slot: number): void {
    this.unlink(slot);
    this.indexRemove(slot);
    if (this.side[slot] !== undefined) this.setSideQuietly(slot);
    this.size--;
  }

  private setSideQuietly(slot: number): void {
    this.sideBytes -= this.sideSize[slot] ?? 0;
    this.side[slot] = undefined;
    this.sideSize[slot] = 0;
  }

  private linkFirst(slot: number): void {
    this.prev[slot] = -1;
    this.next[slot] = this.head;
    if (this.head >= 0) this.prev[this.head] = slot;
    this.head = slot;
    if (this.tail < 0) this.tail = slot;
  }

  private unlink(slot: number): void {
    const p = this.prev[slot] as number;
    const n = this.next[slot] as number;
    if (p >= 0) this.next[p] = n;
    else this.head = n;
    if (n >= 0) this.prev[n] = p;
    else this.tail = p;
  }

  private indexInsert(slot: number): void {
    let i = ((this.keys[slot] as number) >>> 0) & this.mask;
    while (this.index[i] !== 0) i = (i + 1) & this.mask;
    this.index[i] = slot + 1;
  }

  /** Remove from the index, shifting later entries of the probe run back (no tombstones). */
  private indexRemove(slot: number): void {
    const index = this.index;
    const mask = this.mask;
    let i = ((this.keys[slot] as number) >>> 0) & mask;
    while (index[i] !== slot + 1) i = (i + 1) & mask;
    index[i] = 0;
    for (let j = (i + 1) & mask; index[j] !== 0; j = (j + 1) & mask) {
      const s = (index[j] as number) - 1;
      const home = ((this.keys[s] as number) >>> 0) & mask;
      // Keep the entry where it is when its home lies cyclically in (i, j].
      const stays = i <= j ? home > i && home <= j : home > i || home <= j;
      if (!stays) {
        index[i] = index[j] as number;
        index[j] = 0;
        i = j;
      }
    }
  }

  private resize(capacity: number): void {
    const grow = <T extends Float64Array | Uint32Array | Int32Array>(
      old: T,
      make: (n: number) => T,
      n: number,
    ) => {
      const bigger = make(n);
      bigger.set(old);
      return bigger;
    };
    this.keys = grow(this.keys, (n) => new Float64Array(n), capacity);
    this.data = grow(this.data, (n) => new Float64Array(n), capacity * this.doubles);
    this.ints = grow(this.ints, (n) => new Uint32Array(n), capacity * this.words);
    this.prev = grow(this.prev, (n) => new Int32Array(n), capacity);
    this.next = grow(this.next, (n) => new Int32Array(n), capacity);
    this.capacity = capacity;
    const size = indexSize(capacity);
    this.index = new Int32Array(size);
    this.mask = size - 1;
    for (let slot = 0; slot < this.used; slot++) if (this.keys[slot] !== 0) this.indexInsert(slot);
  }
}

/** The index has a power-of-two size of at least twice the capacity (load ≤ 50 %). */
function indexSize(capacity: number): number {
  let size = 16;
  while (size < capacity * 2) size *= 2;
  return size;
}

function arrayBytes(capacity: number, recordBytes: number): number {
  return capacity * recordBytes + indexSize(capacity) * INDEX_BYTES;
}

/** The largest capacity whose arrays fit `budget` bytes. */
function largestCapacity(recordBytes: number, budget: number): number {
  let lo = 0;
  let hi = Math.max(1, Math.floor(budget / recordBytes));
  while (lo < hi) {
    const mid = Math.ceil((lo + hi) / 2);
    if (arrayBytes(mid, recordBytes) <= budget) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}
