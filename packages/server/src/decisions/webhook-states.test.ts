import { describe, expect, it } from 'vitest';
import { WebhookStates } from './webhook-states.ts';

describe('webhook states remembered for binding', () => {
  const states = (answers: Record<string, boolean>) => {
    const reads: string[] = [];
    let clock = 0;
    const webhooks = new WebhookStates(
      (siteId) => {
        reads.push(siteId);
        return answers[siteId] ?? false;
      },
      1000,
      () => clock,
    );
    return { webhooks, reads, advance: (ms: number) => (clock += ms) };
  };

  it('reads each site once for its period, then again', () => {
    const answers = { a: true, b: false };
    const { webhooks, reads, advance } = states(answers);
    expect([webhooks.on('a'), webhooks.on('b'), webhooks.on('a'), webhooks.on('b')]).toEqual([
      true,
      false,
      true,
      false,
    ]);
    expect(reads).toEqual(['a', 'b']);
    answers.a = false;
    advance(999);
    expect(webhooks.on('a')).toBe(true);
    advance(1);
    expect(webhooks.on('a')).toBe(false);
    expect(reads).toEqual(['a', 'b', 'a']);
  });

  it('reads again when asked for a fresh state, and remembers that one', () => {
    const answers = { a: false };
    const { webhooks, reads } = states(answers);
    expect(webhooks.on('a')).toBe(false);
    answers.a = true;
    expect(webhooks.on('a', true)).toBe(true);
    expect(webhooks.on('a')).toBe(true);
    expect(reads).toEqual(['a', 'a']);
  });
});
