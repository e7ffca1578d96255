import { describe, expect, it } from 'vitest';
import { CAPACITY, countElements, SampleBuffer } from './buffer.ts';

describe('SampleBuffer', () => {
  it('never exceeds its capacity and keeps the oldest and newest samples', () => {
    const b = new SampleBuffer<number>(64);
    for (let i = 0; i < 10_000; i++) b.push(i);
    expect(b.items.length).toBeLessThanOrEqual(64);
    expect(b.items[0]).toBe(0);
    expect(b.last).toBe(9_999);
    // Still in time order, with the old part at a coarser resolution than the recent part.
    expect([...b.items].sort((x, y) => x - y)).toEqual(b.items);
    const gaps = b.items.slice(1).map((v, i) => v - b.items[i]!);
    expect(gaps[0]!).toBeGreaterThan(gaps[gaps.length - 1]!);
  });
});

describe('sample budget', () => {
  it('counts every element of every array at any depth', () => {
    expect(countElements({ a: [[1, 2, 3]], b: 5, c: { d: [1] } })).toBe(5);
  });

  it('fills to at most 2,048 elements when every buffer is full', () => {
    const full = {
      mouse: Array.from({ length: CAPACITY.mouse }, () => [1, 2, 3]),
      click_samples: Array.from({ length: CAPACITY.click }, () => [1, 2, 3, 0]),
      key_samples: Array.from({ length: CAPACITY.key }, () => [1, 2]),
      scroll_samples: Array.from({ length: CAPACITY.scroll }, () => [1, 2]),
      touch_samples: Array.from({ length: CAPACITY.touch }, () => [1, 2, 3]),
    };
    expect(countElements(full)).toBe(2048);
  });
});
