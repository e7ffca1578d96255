import { describe, expect, it } from 'vitest';
import { completionSource, completionsAt } from './cel-completions.ts';

describe('rule editor autocomplete', () => {
  const source = completionSource(['datacenter_ip', 'headless_browser'], ['blocked_domains', 'vip_ips']);

  it('completes variables, their fields and signal names', () => {
    const ev = completionsAt(source, 'ev');
    expect(ev.word).toBe('ev');
    expect(ev.items[0]?.insert).toBe('event');
    expect(ev.items.every((c) => c.insert.startsWith('event'))).toBe(true);
    expect(completionsAt(source, 'emailD').items.map((c) => c.insert)).toEqual(['emailDomain(']);
    expect(completionsAt(source, 'event.ty').items.map((c) => c.insert)).toEqual(['event.type']);
    expect(completionsAt(source, 'x && signals.hea').items.map((c) => c.insert)).toEqual([
      'signals.headless_browser',
    ]);
    expect(completionsAt(source, 'features.history.ip_1').items.map((c) => c.insert)).toEqual([
      'features.history.ip_1m',
      'features.history.ip_1h',
    ]);
  });

  it('completes list names inside inList("…', () => {
    expect(completionsAt(source, 'inList("bl')).toEqual({
      word: 'bl',
      items: [{ insert: 'blocked_domains"', detail: 'list' }],
    });
    expect(completionsAt(source, 'ipInList("').items.map((c) => c.insert)).toEqual([
      'blocked_domains"',
      'vip_ips"',
    ]);
  });

  it('offers nothing inside a string, a number or after a complete word', () => {
    expect(completionsAt(source, '"ev').items).toEqual([]);
    expect(completionsAt(source, 'score > 2').items).toEqual([]);
    expect(completionsAt(source, 'event.type ').items).toEqual([]);
    expect(completionsAt(source, 'event').items.map((c) => c.insert)).toContain('event.type');
  });
});
