import { describe, expect, it } from 'vitest';
import { Slab } from './slab.ts';

describe('slab', () => {
  it('finds what it stores and forgets what it removes, like a map (random operations)', () => {
    const slab = new Slab({ doubles: 1, slotBudget: 1 << 20, initialCapacity: 16 });
    const model = new Map<number, number>();
    let seed = 12345;
    const rand = () => {
      seed = (Math.imul(seed, 1103515245) + 12345) >>> 0;
      return seed;
    };
    for (let i = 0; i < 20_000; i++) {
      // Keys that share low bits collide in the index: long probe runs, shifted on removal.
      const key = ((rand() % 500) + 1) * 1024;
      const slot = slab.find(key);
      expect(slot >= 0).toBe(model.has(key));
      if (rand() % 3 === 0) {
        if (slot >= 0) {
          slab.remove(slot);
          model.delete(key);
        }
      } else if (slot >= 0) {
        expect(slab.data[slot]).toBe(model.get(key));
      } else {
        const fresh = slab.insert(key);
        slab.data[fresh] = i;
        model.set(key, i);
      }
    }
    expect(slab.size).toBe(model.size);
    expect(slab.evictions).toBe(0);
  });

  it('drops the least recently used record when full, never more bytes than its budget', () => {
    const slab = new Slab({ doubles: 2, slotBudget: 8 * 1024 });
    const capacity = slab.maxCapacity;
    for (let key = 1; key <= capacity; key++) slab.insert(key);
    expect(slab.evictions).toBe(0);
    slab.touch(slab.find(1)); // key 1 is used again: key 2 is now the oldest
    slab.insert(capacity + 1);
    expect(slab.find(1)).toBeGreaterThanOrEqual(0);
    expect(slab.find(2)).toBe(-1);
    expect(slab.find(3)).toBeGreaterThanOrEqual(0);
    for (let key = capacity + 2; key < capacity + 100_000; key++) slab.insert(key);
    expect(slab.size).toBe(capacity);
    expect(slab.bytes).toBeLessThanOrEqual(8 * 1024);
    expect(slab.find(capacity + 99_999)).toBeGreaterThanOrEqual(0);
  });

  it('holds side objects to their budget, dropping the oldest records but never the one being written', () => {
    const slab = new Slab<string>({ doubles: 1, slotBudget: 64 * 1024, sideBudget: 1_000 });
    const slots = Array.from({ length: 10 }, (_, i) => slab.insert(i + 1));
    for (const slot of slots) slab.setSide(slot, 'x', 100);
    expect(slab.evictions).toBe(0);
    const big = slab.insert(11);
    slab.setSide(big, 'big', 350);
    // 10 × 100 + 350 > 1000: the four oldest go (1000 - 400 + 350 = 950).
    expect(slab.evictions).toBe(4);
    expect(slab.find(4)).toBe(-1);
    expect(slab.find(5)).toBeGreaterThanOrEqual(0);
    expect(slab.getSide(slab.find(11))).toBe('big');
    const huge = slab.insert(12);
    slab.setSide(huge, 'huge', 5_000);
    expect(slab.getSide(slab.find(12))).toBe('huge');
    expect(slab.size).toBe(1);
  });
});
