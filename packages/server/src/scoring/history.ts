import type { AppContext } from '../context.ts';

/**
 * Velocity, fan-out and device history counters in hot state (shared by every process in scale
 * mode). They survive a restart: on first use per site in a process, unless hot state already
 * carries a rebuild marker for the site (Redis kept it), the counters are rebuilt from the
 * `decisions` table of the last 24 h (device history: 30 days). Counts are approximate
 * (two-bucket sliding windows) and consistent after a restart within that approximation.
 */
export const MINUTE = 60_000;
export const HOUR = 60 * MINUTE;
export const DAY = 24 * HOUR;
export const DEVICE_WINDOW = 30 * DAY;
const REBUILD_LIMIT = 200_000;

export interface Observation {
  siteId: string;
  accountId: string;
  ip: string;
  deviceId: string;
  paymentHash: string;
  /** Normalised e-mail ("" when none). */
  email: string;
  loginFailed: boolean;
}

export interface HistoryCounts {
  ip_1m: number;
  ip_1h: number;
  account_1m: number;
  account_1h: number;
  device_1m: number;
  device_1h: number;
  failed_logins_account_1h: number;
  failed_logins_ip_1h: number;
  accounts_per_device_24h: number;
  accounts_per_ip_24h: number;
  payments_per_account_24h: number;
  payments_per_device_24h: number;
  accounts_per_email_24h: number;
  device_first_seen: number | null;
  device_events_30d: number;
  device_risky_events_30d: number;
}

type Pair = 'da' | 'ia' | 'ap' | 'dp' | 'ea';

export class History {
  private readonly rebuilt = new Map<string, Promise<void>>();

  constructor(private readonly ctx: AppContext) {}

  /** Count this event and answer the counters including it. */
  async observe(o: Observation, now: number): Promise<HistoryCounts> {
    await this.ensureRebuilt(o.siteId);
    const h = this.ctx.hotState;
    const s = o.siteId;
    const zero = Promise.resolve(0);
    const vel = (kind: string, id: string, w: number) => (id ? h.hit(`vel:${s}:${kind}:${id}`, w) : zero);
    const fail = (kind: string, id: string) =>
      id
        ? o.loginFailed
          ? h.hit(`fail:${s}:${kind}:${id}`, HOUR)
          : h.count(`fail:${s}:${kind}:${id}`, HOUR)
        : zero;
    const results = await Promise.all([
      vel('ip', o.ip, MINUTE),
      vel('ip', o.ip, HOUR),
      vel('acct', o.accountId, MINUTE),
      vel('acct', o.accountId, HOUR),
      vel('dev', o.deviceId, MINUTE),
      vel('dev', o.deviceId, HOUR),
      fail('acct', o.accountId),
      fail('ip', o.ip),
      this.distinct(s, 'da', o.deviceId, o.accountId),
      this.distinct(s, 'ia', o.ip, o.accountId),
      this.distinct(s, 'ap', o.accountId, o.paymentHash),
      this.distinct(s, 'dp', o.deviceId, o.paymentHash),
      this.distinct(s, 'ea', o.email, o.accountId),
      o.deviceId ? this.firstSeen(s, o.deviceId, now) : Promise.resolve(null),
      o.deviceId ? h.hit(`devn:${s}:${o.deviceId}`, DEVICE_WINDOW) : zero,
      o.deviceId ? h.count(`devbad:${s}:${o.deviceId}`, DEVICE_WINDOW) : zero,
    ]);
    const n = (i: number) => (results[i] as number | null) ?? 0;
    return {
      ip_1m: n(0),
      ip_1h: n(1),
      account_1m: n(2),
      account_1h: n(3),
      device_1m: n(4),
      device_1h: n(5),
      failed_logins_account_1h: n(6),
      failed_logins_ip_1h: n(7),
      accounts_per_device_24h: n(8),
      accounts_per_ip_24h: n(9),
      payments_per_account_24h: n(10),
      payments_per_device_24h: n(11),
      accounts_per_email_24h: n(12),
      device_first_seen: results[13] as number | null,
      device_events_30d: n(14),
      device_risky_events_30d: n(15),
    };
  }

  /** After the decision is recorded: remember risky outcomes against the device. */
  async recordOutcome(siteId: string, deviceId: string, riskScore: number): Promise<void> {
    if (deviceId && riskScore >= 60)
      await this.ctx.hotState.hit(`devbad:${siteId}:${deviceId}`, DEVICE_WINDOW);
  }

  /** Distinct `member`s seen with `owner` in 24 h (approximate: claimOnce + sliding counter). */
  private async distinct(
    siteId: string,
    pair: Pair,
    owner: string,
    member: string,
    amount = 1,
  ): Promise<number> {
    if (!owner || !member) return 0;
    const key = `dist:${siteId}:${pair}:${owner}`;
    if (await this.ctx.hotState.claimOnce(`seen:${siteId}:${pair}:${owner}:${member}`, DAY)) {
      return this.ctx.hotState.hit(key, DAY, amount);
    }
    return this.ctx.hotState.count(key, DAY);
  }

  private async firstSeen(siteId: string, deviceId: string, now: number, at = now): Promise<number> {
    const key = `devfirst:${siteId}:${deviceId}`;
    const known = await this.ctx.hotState.get(key);
    if (known !== null && Number(known) <= at) return Number(known);
    await this.ctx.hotState.set(key, String(at), DEVICE_WINDOW * 3);
    return at;
  }

  ensureRebuilt(siteId: string): Promise<void> {
    let p = this.rebuilt.get(siteId);
    if (!p) {
      p = this.rebuild(siteId).catch((err: unknown) => {
        this.ctx.logger.warn({ err, siteId }, 'velocity rebuild failed; counting from now');
      });
      this.rebuilt.set(siteId, p);
    }
    return p;
  }

  private async rebuild(siteId: string): Promise<void> {
    const h = this.ctx.hotState;
    if (!(await h.claimOnce(`rebuilt:${siteId}`, DAY))) return;
    const now = this.ctx.now();
    const db = this.ctx.database.db;
    const rows = await db
      .selectFrom('decisions')
      .select([
        'account_id',
        'ip_address',
        'device_id',
        'payment_hash',
        'email',
        'event_type',
        'features',
        'created_at',
      ])
      .where('site_id', '=', siteId)
      .where('created_at', '>=', now - DAY)
      .orderBy('created_at', 'desc')
      .limit(REBUILD_LIMIT)
      .execute();
    const counts = new Map<string, number>();
    const add = (key: string) => counts.set(key, (counts.get(key) ?? 0) + 1);
    const pairs = new Map<string, Set<string>>();
    const pair = (p: Pair, owner: string | null, member: string | null) => {
      if (!owner || !member) return;
      const key = `${p}\n${owner}`;
      const set = pairs.get(key) ?? new Set<string>();
      pairs.set(key, set);
      set.add(member);
    };
    for (const r of rows) {
      const age = now - r.created_at;
      for (const [kind, id] of [
        ['ip', r.ip_address],
        ['acct', r.account_id],
        ['dev', r.device_id],
      ] as const) {
        if (!id) continue;
        if (age < MINUTE) add(`vel:${siteId}:${kind}:${id}\n${MINUTE}`);
        if (age < HOUR) add(`vel:${siteId}:${kind}:${id}\n${HOUR}`);
      }
      if (r.event_type === 'login' && age < HOUR && r.features.includes('"login_succeeded":false')) {
        add(`fail:${siteId}:acct:${r.account_id}\n${HOUR}`);
        if (r.ip_address) add(`fail:${siteId}:ip:${r.ip_address}\n${HOUR}`);
      }
      pair('da', r.device_id, r.account_id);
      pair('ia', r.ip_address, r.account_id);
      pair('ap', r.account_id, r.payment_hash);
      pair('dp', r.device_id, r.payment_hash);
      pair('ea', emailKey(r.email), r.account_id);
    }
    const work: Array<Promise<unknown>> = [];
    for (const [key, amount] of counts) {
      const [name, window] = key.split('\n') as [string, string];
      work.push(h.hit(name, Number(window), amount));
    }
    for (const [key, members] of pairs) {
      const [p, owner] = key.split('\n') as [Pair, string];
      for (const m of members) work.push(h.claimOnce(`seen:${siteId}:${p}:${owner}:${m}`, DAY));
      work.push(h.hit(`dist:${siteId}:${p}:${owner}`, DAY, members.size));
    }
    await Promise.all(work);
    await this.rebuildDevices(siteId, now);
  }

  private async rebuildDevices(siteId: string, now: number): Promise<void> {
    const rows = await this.ctx.database.db
      .selectFrom('decisions')
      .select((eb) => [
        'device_id',
        eb.fn.min<number>('created_at').as('first'),
        eb.fn.countAll<number>().as('n'),
        eb.fn.sum<number>(eb.case().when('risk_score', '>=', 60).then(1).else(0).end()).as('bad'),
      ])
      .where('site_id', '=', siteId)
      .where('device_id', '!=', '')
      .where('created_at', '>=', now - DEVICE_WINDOW)
      .groupBy('device_id')
      .limit(REBUILD_LIMIT)
      .execute();
    const h = this.ctx.hotState;
    await Promise.all(
      rows.flatMap((r) => [
        this.firstSeen(siteId, r.device_id, now, Number(r.first)),
        h.hit(`devn:${siteId}:${r.device_id}`, DEVICE_WINDOW, Number(r.n)),
        Number(r.bad) > 0 ? h.hit(`devbad:${siteId}:${r.device_id}`, DEVICE_WINDOW, Number(r.bad)) : null,
      ]),
    );
  }
}

/** E-mail key for account fan-out: lower case, +tag removed, dots removed for Gmail. */
export function emailKey(email: string | null | undefined): string {
  if (!email) return '';
  const at = email.lastIndexOf('@');
  if (at <= 0) return '';
  let local = email.slice(0, at).trim().toLowerCase();
  let domain = email
    .slice(at + 1)
    .trim()
    .toLowerCase();
  if (domain === 'googlemail.com') domain = 'gmail.com';
  const plus = local.indexOf('+');
  if (plus > 0) local = local.slice(0, plus);
  if (domain === 'gmail.com') local = local.replaceAll('.', '');
  return `${local}@${domain}`;
}
