import { describe, expect, it } from 'vitest';
import { RequestDeadlines } from './request-deadlines.ts';
import { PinnedPools, sendAttempt } from './sender.ts';
import { startReceiver } from './test-fixtures.ts';

describe('request deadlines without a timer per request', () => {
  it('aborts a request past its deadline and leaves the others alone', async () => {
    let clock = 0;
    const deadlines = new RequestDeadlines(100, 5, () => clock);
    const late = deadlines.start();
    clock = 50;
    const early = deadlines.start();
    let aborted = 0;
    late.addEventListener('abort', () => aborted++);
    early.addEventListener('abort', () => aborted++);
    clock = 100;
    await new Promise((r) => setTimeout(r, 30));
    expect(late.aborted).toBe(true);
    expect(late.reason?.name).toBe('TimeoutError');
    expect(early.aborted).toBe(false);
    expect(aborted).toBe(1);
    deadlines.end(early);
    expect(deadlines.size).toBe(0);
    deadlines.close();
  });

  it('ends a webhook attempt whose receiver never answers as a timeout', async () => {
    const receiver = await startReceiver(() => undefined);
    const pools = new PinnedPools(2_000);
    const deadlines = new RequestDeadlines(200);
    try {
      const url = new URL(receiver.url);
      const outcome = await sendAttempt({
        url,
        pool: pools.get(url.origin, '127.0.0.1', 4),
        deadlines,
        deliveryId: 'd1',
        payload: '{}',
        secret: 'whsec_test',
        timeoutMs: 60_000,
      });
      expect(outcome).toMatchObject({ ok: false, statusCode: null });
      expect(outcome.error).toMatch(/^timeout/);
      expect(deadlines.size).toBe(0);
    } finally {
      await pools.close();
      await receiver.close();
    }
  });
});
