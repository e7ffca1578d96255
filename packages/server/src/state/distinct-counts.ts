import { memberHash } from './hash.ts';
import { slidingTotal } from './hot-state.ts';
import { MemberSet } from './member-set.ts';
import { Slab } from './slab.ts';

/**
 * Distinct counts over sliding windows for the in-process hot state (`HotState.distinct`): one
 * slab record per key and window holding the member hashes of the current and previous bucket,
 * INLINE of each inline, then a MemberSet (exact to 64 members, a HyperLogLog sketch beyond).
 */
/** Members of each bucket held inline in a distinct record before it moves to a MemberSet. */
const INLINE = 3;

const D_WINDOW = 0;
const D_BUCKET = 1;
const D_CURRENT = 2;
const D_PREVIOUS = 3;

/** A distinct record's members once they no longer fit inline. */
interface Buckets {
  current: MemberSet;
  previous: MemberSet;
}

export class DistinctCounts {
  readonly slab: Slab<Buckets>;

  constructor(slotBudget: number, sideBudget: number) {
    this.slab = new Slab({ doubles: 4, words: 2 * INLINE, slotBudget, sideBudget });
  }

  /** Add `member` (when given) to the record `hash` and answer its distinct count over the window. */
  count(hash: number, member: string | null, windowMs: number, now: number): number {
    const s = this.slab;
    const bucket = Math.floor(now / windowMs);
    let slot = s.find(hash);
    if (slot < 0) {
      if (!member) return 0;
      slot = s.insert(hash);
      s.data[slot * 4 + D_WINDOW] = windowMs;
      s.data[slot * 4 + D_BUCKET] = bucket;
    } else {
      s.touch(slot);
      this.roll(slot, bucket);
    }
    if (member) this.add(slot, memberHash(member));
    const d = s.data;
    const buckets = s.getSide(slot);
    if (buckets) {
      const currentOnly = buckets.previous.missing(buckets.current);
      return slidingTotal(currentOnly, buckets.previous.size(), now, windowMs);
    }
    // Members of the current bucket that the previous one does not have count in full; the
    // previous bucket's members count by the part of it still inside the window.
    const ints = s.ints;
    const base = slot * 2 * INLINE;
    const current = d[slot * 4 + D_CURRENT] as number;
    const previous = d[slot * 4 + D_PREVIOUS] as number;
    let currentOnly = 0;
    for (let i = 0; i < current; i++) {
      const h = ints[base + i];
      let found = false;
      for (let j = 0; j < previous; j++) if (ints[base + INLINE + j] === h) found = true;
      if (!found) currentOnly++;
    }
    return slidingTotal(currentOnly, previous, now, windowMs);
  }

  /** Forget records whose newest bucket is two or more buckets old (they count nothing any more). */
  sweep(slice: number, now: number): void {
    const d = this.slab.data;
    this.slab.sweep(slice, (slot) => {
      const w = d[slot * 4 + D_WINDOW] as number;
      return Math.floor(now / w) - (d[slot * 4 + D_BUCKET] as number) >= 2;
    });
  }

  /** Move a distinct record to `bucket`: the current members become the previous ones, or both empty. */
  private roll(slot: number, bucket: number): void {
    const s = this.slab;
    const d = s.data;
    const at = slot * 4;
    const last = d[at + D_BUCKET] as number;
    if (last === bucket) return;
    d[at + D_BUCKET] = bucket;
    const buckets = s.getSide(slot);
    if (last === bucket - 1) {
      if (buckets) {
        buckets.previous = buckets.current;
        buckets.current = new MemberSet();
        s.setSide(slot, buckets, bucketsBytes(buckets));
        return;
      }
      const base = slot * 2 * INLINE;
      s.ints.copyWithin(base + INLINE, base, base + INLINE);
      d[at + D_PREVIOUS] = d[at + D_CURRENT] as number;
      d[at + D_CURRENT] = 0;
      return;
    }
    if (buckets) s.setSide(slot, undefined, 0);
    d[at + D_CURRENT] = 0;
    d[at + D_PREVIOUS] = 0;
  }

  private add(slot: number, hash: number): void {
    const s = this.slab;
    const buckets = s.getSide(slot);
    if (buckets) {
      if (buckets.current.add(hash)) s.setSide(slot, buckets, bucketsBytes(buckets));
      return;
    }
    const d = s.data;
    const ints = s.ints;
    const base = slot * 2 * INLINE;
    const current = d[slot * 4 + D_CURRENT] as number;
    for (let i = 0; i < current; i++) if (ints[base + i] === hash) return;
    if (current < INLINE) {
      ints[base + current] = hash;
      d[slot * 4 + D_CURRENT] = current + 1;
      return;
    }
    const moved: Buckets = {
      current: MemberSet.of(ints, base, current),
      previous: MemberSet.of(ints, base + INLINE, d[slot * 4 + D_PREVIOUS] as number),
    };
    moved.current.add(hash);
    s.setSide(slot, moved, bucketsBytes(moved));
  }
}

function bucketsBytes(b: Buckets): number {
  return 48 + b.current.bytes() + b.previous.bytes();
}
