/**
 * The cost limits of custom rules (docs/rules.md, "Time budget"). Each decision gets a time
 * budget for all of its custom rules together; each rule evaluation also has a step limit, counted
 * by the evaluator (one step per expression node evaluated, more for long strings, big lists and
 * regular-expression matches). A rule that runs out of either is skipped for that decision.
 */
export interface RuleBudget {
  /** Total time for the custom rules of one decision, in the clock's unit (milliseconds). */
  timeMs: number;
  /** Steps one rule evaluation may take. */
  stepsPerRule: number;
  /** Monotonic clock in milliseconds (injected by tests). */
  now: () => number;
}

export const DEFAULT_RULE_TIME_BUDGET_MS = 25;
export const DEFAULT_RULE_STEPS = 50_000;

export function ruleBudget(timeMs = DEFAULT_RULE_TIME_BUDGET_MS, now = () => performance.now()): RuleBudget {
  return { timeMs, stepsPerRule: DEFAULT_RULE_STEPS, now };
}

/** Thrown (one instance per meter, rethrown cheaply) when a rule runs out of steps or time. */
export class RuleBudgetExceeded extends Error {
  constructor(readonly reason: 'steps' | 'time') {
    super(reason === 'steps' ? 'step limit reached' : 'time budget used up');
    this.name = 'RuleBudgetExceeded';
  }
}

/** How often (in steps) the meter reads the clock. */
const CLOCK_EVERY = 256;

/**
 * Counts the steps of one rule evaluation against its limit and the decision's deadline. Once
 * exhausted it stays exhausted: CEL's `||`, `&&` and quantifiers swallow errors of one branch, so
 * the caller checks `exhausted` after the evaluation instead of relying on the throw alone.
 */
export class RuleMeter {
  used = 0;
  private nextClockRead = CLOCK_EVERY;
  private failure: RuleBudgetExceeded | null = null;

  constructor(
    readonly limit: number,
    private readonly deadline: number,
    private readonly now: () => number,
  ) {}

  get exhausted(): RuleBudgetExceeded | null {
    return this.failure;
  }

  charge(steps: number): void {
    if (this.failure) throw this.failure;
    this.used += steps;
    if (this.used > this.limit) this.fail('steps');
    if (this.used >= this.nextClockRead) {
      this.nextClockRead = this.used + CLOCK_EVERY;
      if (this.now() > this.deadline) this.fail('time');
    }
  }

  private fail(reason: 'steps' | 'time'): never {
    this.failure = new RuleBudgetExceeded(reason);
    throw this.failure;
  }
}
