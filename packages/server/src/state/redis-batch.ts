/**
 * The counter operations issued in one tick, as one Lua script call instead of one command each.
 * A decision's velocity history issues about 30 of them at once (scoring/history.ts); as separate
 * commands ioredis builds, writes, parses and settles each one in the Warden process. Batched
 * they still run in the order issued, on the Redis server, in one step.
 *
 * Each operation answers two values. KEYS: every operation's keys in order; ARGV: per operation its
 * code, then its arguments:
 *   h  hit       KEYS current, previous bucket; ARGV amount, expiry (epoch ms)
 *                → the current bucket after adding, the previous bucket
 *   c  count     KEYS current, previous bucket → both buckets
 *   d  distinct  KEYS current, previous bucket (HyperLogLogs); ARGV '1' to add, member, expiry
 *                → the previous bucket's count, the union's count
 *   g  get       KEYS the value → 1 and the value, or 0 and '' when there is none
 */
export const BATCH = `local out = {}
local k, a = 1, 1
while a <= #ARGV do
  local op = ARGV[a]
  if op == 'h' then
    out[#out + 1] = redis.call('incrby', KEYS[k], ARGV[a + 1])
    redis.call('pexpireat', KEYS[k], ARGV[a + 2])
    out[#out + 1] = tonumber(redis.call('get', KEYS[k + 1]) or '0')
    k, a = k + 2, a + 3
  elseif op == 'c' then
    out[#out + 1] = tonumber(redis.call('get', KEYS[k]) or '0')
    out[#out + 1] = tonumber(redis.call('get', KEYS[k + 1]) or '0')
    k, a = k + 2, a + 1
  elseif op == 'd' then
    if ARGV[a + 1] == '1' then
      redis.call('pfadd', KEYS[k], ARGV[a + 2])
      redis.call('pexpireat', KEYS[k], ARGV[a + 3])
    end
    out[#out + 1] = redis.call('pfcount', KEYS[k + 1])
    out[#out + 1] = redis.call('pfcount', KEYS[k], KEYS[k + 1])
    k, a = k + 2, a + 4
  elseif op == 'g' then
    local value = redis.call('get', KEYS[k])
    out[#out + 1] = value and 1 or 0
    out[#out + 1] = value or ''
    k, a = k + 1, a + 1
  else
    return redis.error_reply('unknown batched operation ' .. tostring(op))
  end
end
return out`;

export type BatchedOp = 'h' | 'c' | 'd' | 'g';
type Answer = [unknown, unknown];
type Send = (keys: string[], args: Array<string | number>) => Promise<unknown[]>;

/**
 * Collects operations until the tick's end (process.nextTick), then sends them as one `BATCH`
 * call. `flush()` sends what is collected at once: RedisHotState calls it before any command that
 * is not batched, so every command still reaches Redis in the order it was issued. When the call
 * fails, every operation of the batch fails with its error.
 */
export class OpBatch {
  private keys: string[] = [];
  private args: Array<string | number> = [];
  private waiting: Array<{ resolve: (answer: Answer) => void; reject: (err: unknown) => void }> = [];

  constructor(private readonly send: Send) {}

  add(op: BatchedOp, keys: readonly string[], args: ReadonlyArray<string | number>): Promise<Answer> {
    if (this.waiting.length === 0) process.nextTick(() => this.flush());
    for (const key of keys) this.keys.push(key);
    this.args.push(op);
    for (const arg of args) this.args.push(arg);
    return new Promise<Answer>((resolve, reject) => this.waiting.push({ resolve, reject }));
  }

  flush(): void {
    if (this.waiting.length === 0) return;
    const { keys, args, waiting } = this;
    this.keys = [];
    this.args = [];
    this.waiting = [];
    this.send(keys, args).then(
      (out) => {
        for (const [i, op] of waiting.entries()) op.resolve([out[2 * i], out[2 * i + 1]]);
      },
      (err: unknown) => {
        for (const op of waiting) op.reject(err);
      },
    );
  }
}
