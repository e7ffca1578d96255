/**
 * Answers of a pure function remembered by key, at most `limit` of them: when full, all are
 * dropped at once (the keys that repeat, user agents or site settings, are back within a few
 * calls; a least-recently-used list would cost more than it saves here). One per process, owned by
 * services.ts, never module state.
 */
export class BoundedMemo<K, V> {
  private readonly answers = new Map<K, V>();

  constructor(
    private readonly limit: number,
    private readonly compute: (key: K) => V,
  ) {}

  get(key: K): V {
    const answers = this.answers;
    const hit = answers.get(key);
    if (hit !== undefined || answers.has(key)) return hit as V;
    const answer = this.compute(key);
    if (answers.size >= this.limit) answers.clear();
    answers.set(key, answer);
    return answer;
  }

  get size(): number {
    return this.answers.size;
  }
}
