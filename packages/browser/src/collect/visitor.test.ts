import { describe, expect, it } from 'vitest';
import { VISITOR_KEY, visitorId } from './visitor.ts';

/** A Storage over a Map (what localStorage offers the SDK). */
function memoryStorage(): Storage {
  const m = new Map<string, string>();
  return {
    get length() {
      return m.size;
    },
    clear: () => m.clear(),
    getItem: (k) => m.get(k) ?? null,
    key: (i) => [...m.keys()][i] ?? null,
    removeItem: (k) => void m.delete(k),
    setItem: (k, v) => void m.set(k, String(v)),
  };
}

describe('visitorId', () => {
  it('creates a random id once and keeps it in the storage', () => {
    const s = memoryStorage();
    const first = visitorId(() => s);
    expect(first).toMatch(/^[0-9a-f]{32}$/);
    expect(s.getItem(VISITOR_KEY)).toBe(first);
    expect(visitorId(() => s)).toBe(first);
    expect(visitorId(() => memoryStorage())).not.toBe(first);
  });

  it('replaces a value the server would refuse, and is undefined when storage is blocked', () => {
    const s = memoryStorage();
    s.setItem(VISITOR_KEY, 'bad value!');
    expect(visitorId(() => s)).toMatch(/^[0-9a-f]{32}$/);
    expect(
      visitorId(() => {
        throw new DOMException('blocked', 'SecurityError');
      }),
    ).toBeUndefined();
  });
});
