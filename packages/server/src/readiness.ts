/**
 * The start-up work `/readyz` waits for beyond "the database and the hot state answer"
 * (docs/operations.md, "Health and monitoring"): the IP database and the history rebuild of the
 * scoring engine, the decision writer thread, the webhook worker's first round, the demo seed.
 * `serve` tracks each as it starts it; a context without a Readiness (tests) has none to wait for.
 */
export class Readiness {
  private readonly steps = new Map<string, string>();

  /** Not ready until `work` settles; a step that fails keeps the process not ready, with the reason. */
  track(name: string, work: Promise<unknown>): void {
    this.steps.set(name, 'pending');
    work.then(
      () => this.steps.set(name, 'ok'),
      (err: unknown) => this.steps.set(name, `failed: ${err instanceof Error ? err.message : String(err)}`),
    );
  }

  /** Each step and its state: `pending`, `ok` or `failed: …`. */
  report(): Record<string, string> {
    return Object.fromEntries(this.steps);
  }
}
