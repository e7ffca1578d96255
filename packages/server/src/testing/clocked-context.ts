import { afterEach, beforeEach } from 'vitest';
import type { AppContext } from '../context.ts';
import { createTestContext } from './context.ts';

export interface ClockedContext {
  /** The test's context, fresh before each test and closed after it. */
  ctx: AppContext;
  /** What `ctx.now()` reads: `start` again before each test, moved by the test (`t.clock += ms`). */
  clock: number;
}

/** For a describe block: a test context per test whose clock the test moves by hand. */
export function useClockedContext(start = 1_700_000_000_000): ClockedContext {
  const t = { clock: start } as ClockedContext;
  beforeEach(async () => {
    t.ctx = await createTestContext();
    t.clock = start;
    t.ctx.now = () => t.clock;
  });
  afterEach(async () => {
    await t.ctx.hotState.close();
    await t.ctx.database.close();
  });
  return t;
}
