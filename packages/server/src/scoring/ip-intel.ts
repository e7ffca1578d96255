import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { isIP } from 'node:net';
import path from 'node:path';

/**
 * Offline IP intelligence: the autonomous system (ASN, organisation) of an address from the
 * `@ip-location-db/asn` package (RouteViews + DB-IP, CC BY 4.0; CSV ranges shipped in
 * node_modules, no network access), and whether that network is a hosting/cloud provider.
 *
 * Loaded once per process in the background (≈ 0.5–1 s, ≈ 10 MB); lookups before it is ready,
 * or without the package, answer "unknown". `WARDEN_IP_DB=off` disables it;
 * `WARDEN_IP_DB_DIR=/path` reads `asn-ipv4-num.csv` / `asn-ipv6-num.csv` from another directory
 * (a newer download). Update: `npm update @ip-location-db/asn -w packages/server`.
 */
export interface IpInfo {
  asn: number | null;
  org: string | null;
  /** Not in the ASN database: always null for now (docs/signals.md). */
  country: string | null;
  /** The network is a hosting, cloud or VPN provider (HOSTING_ASNS or an org-name keyword). */
  hosting: boolean;
}

export const UNKNOWN_IP: IpInfo = Object.freeze({ asn: null, org: null, country: null, hosting: false });

/**
 * Hosting and cloud networks by ASN (the big ones; the org-name pattern catches the long tail).
 * Amazon, Google Cloud, Microsoft, DigitalOcean, OVH, Hetzner, Linode/Akamai, Vultr, Contabo,
 * Leaseweb, Scaleway, Oracle, Alibaba, Tencent, M247, ColoCrossing, QuadraNet, BuyVM, Datacamp,
 * Hostinger, IONOS, Zenlayer, G-Core.
 */
export const HOSTING_ASNS: ReadonlySet<number> = new Set([
  16509, 14618, 8987, 396982, 15169, 19527, 8075, 8068, 14061, 16276, 35540, 24940, 213230, 63949, 20473,
  51167, 40021, 60781, 28753, 59253, 12876, 31898, 45102, 37963, 132203, 9009, 36352, 8100, 53667, 60068,
  212238, 47583, 8560, 21859, 199524, 202422, 62240, 46562, 55286, 20454, 29802, 19318, 23470,
]);
const HOSTING_ORG =
  /\b(hosting|hoster|host\b|cloud|data ?cent(er|re)|datacamp|server|vps|colocation|colo\b|dedicated|amazon|aws|google cloud|microsoft azure|digitalocean|ovh|hetzner|linode|akamai connected cloud|vultr|choopa|contabo|leaseweb|scaleway|oracle cloud|alibaba|tencent cloud|m247|colocrossing|quadranet|frantech|hostinger|ionos|zenlayer|g-core|gcore)/i;

export function isHostingNetwork(asn: number, org: string): boolean {
  return HOSTING_ASNS.has(asn) || HOSTING_ORG.test(org);
}

interface Table {
  v4start: Uint32Array;
  v4end: Uint32Array;
  v4asn: Uint32Array;
  /** IPv6 ranges by their upper 64 bits (allocations are /48 or larger). */
  v6start: BigUint64Array;
  v6end: BigUint64Array;
  v6asn: Uint32Array;
  orgs: Map<number, string>;
  hosting: Set<number>;
}

export interface IpDatabaseOptions {
  enabled: boolean;
  dir: string | undefined;
}

function packageDir(options: IpDatabaseOptions): string | null {
  if (options.dir) return options.dir;
  try {
    const require = createRequire(import.meta.url);
    return path.dirname(require.resolve('@ip-location-db/asn/package.json'));
  } catch {
    return null;
  }
}

function unquote(s: string): string {
  return s.startsWith('"') && s.endsWith('"') ? s.slice(1, -1).replaceAll('""', '"') : s;
}

/** A typed array that doubles when full: no per-row JS numbers or BigInts are kept while loading. */
class Column<T extends Uint32Array | BigUint64Array> {
  length = 0;
  constructor(private data: T) {}
  push(value: T extends BigUint64Array ? bigint : number): void {
    if (this.length === this.data.length) {
      const bigger = new (this.data.constructor as new (n: number) => T)(this.data.length * 2);
      bigger.set(this.data as never);
      this.data = bigger;
    }
    (this.data as unknown as Array<typeof value>)[this.length++] = value;
  }
  done(): T {
    return this.data.slice(0, this.length) as T;
  }
}

/** Parse `start,end,asn,org` lines (numeric addresses); `big` for IPv6 (upper 64 bits kept). */
function parse<T extends Uint32Array | BigUint64Array>(
  text: string,
  empty: () => T,
  orgs: Map<number, string>,
) {
  const first = empty();
  const big = first instanceof BigUint64Array;
  const starts = new Column(first);
  const ends = new Column(empty());
  const asns = new Column(new Uint32Array(1024));
  const SHIFT = 64n;
  let pos = 0;
  while (pos < text.length) {
    let nl = text.indexOf('\n', pos);
    if (nl < 0) nl = text.length;
    const c1 = text.indexOf(',', pos);
    const c2 = c1 < 0 ? -1 : text.indexOf(',', c1 + 1);
    const c3 = c2 < 0 ? -1 : text.indexOf(',', c2 + 1);
    if (c3 > 0 && c3 < nl) {
      const asn = Number(text.slice(c2 + 1, c3));
      if (Number.isSafeInteger(asn) && asn > 0) {
        const start = text.slice(pos, c1);
        const end = text.slice(c1 + 1, c2);
        if (big) {
          (starts as Column<BigUint64Array>).push(BigInt(start) >> SHIFT);
          (ends as Column<BigUint64Array>).push(BigInt(end) >> SHIFT);
        } else {
          (starts as Column<Uint32Array>).push(Number(start));
          (ends as Column<Uint32Array>).push(Number(end));
        }
        asns.push(asn);
        if (!orgs.has(asn)) orgs.set(asn, unquote(text.slice(c3 + 1, nl).trim()));
      }
    }
    pos = nl + 1;
  }
  return { starts: starts.done(), ends: ends.done(), asns: asns.done() };
}

async function load(options: IpDatabaseOptions): Promise<Table | null> {
  if (!options.enabled) return null;
  const dir = packageDir(options);
  if (!dir) return null;
  const [v4text, v6text] = await Promise.all([
    readFile(path.join(dir, 'asn-ipv4-num.csv'), 'utf8'),
    readFile(path.join(dir, 'asn-ipv6-num.csv'), 'utf8').catch(() => ''),
  ]);
  const orgs = new Map<number, string>();
  const v4 = parse(v4text, () => new Uint32Array(1024), orgs);
  const v6 = parse(v6text, () => new BigUint64Array(1024), orgs);
  const hosting = new Set<number>();
  for (const [asn, org] of orgs) if (isHostingNetwork(asn, org)) hosting.add(asn);
  return {
    v4start: v4.starts,
    v4end: v4.ends,
    v4asn: v4.asns,
    v6start: v6.starts,
    v6end: v6.ends,
    v6asn: v6.asns,
    orgs,
    hosting,
  };
}

let table: Table | null = null;
let loading: Promise<void> | null = null;

/**
 * Start loading the database (once per process, with the options of the first call: the engine
 * passes config.ipDatabase); resolves when ready or unavailable.
 */
export function ipIntelReady(options: IpDatabaseOptions = { enabled: true, dir: undefined }): Promise<void> {
  loading ??= load(options).then(
    (t) => {
      table = t;
    },
    () => {
      table = null;
    },
  );
  return loading;
}

function search<T extends number | bigint>(starts: ArrayLike<T>, ends: ArrayLike<T>, value: T): number {
  let lo = 0;
  let hi = starts.length - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    if (starts[mid]! <= value) lo = mid + 1;
    else hi = mid - 1;
  }
  return hi >= 0 && value <= ends[hi]! ? hi : -1;
}

function v4number(ip: string): number {
  let n = 0;
  for (const part of ip.split('.')) n = n * 256 + Number(part);
  return n;
}

function v6upper(ip: string): bigint | null {
  const zone = ip.indexOf('%');
  const a = zone >= 0 ? ip.slice(0, zone) : ip;
  const [head = '', tail] = a.split('::') as [string, string | undefined];
  const left = head === '' ? [] : head.split(':');
  const right = tail === undefined || tail === '' ? [] : tail.split(':');
  const groups = [...left, ...Array<string>(Math.max(0, 8 - left.length - right.length)).fill('0'), ...right];
  let n = 0n;
  for (let i = 0; i < 4; i++) {
    const g = Number.parseInt(groups[i] ?? '0', 16);
    if (!Number.isFinite(g)) return null;
    n = (n << 16n) | BigInt(g);
  }
  return n;
}

const cache = new Map<string, IpInfo>();

/** ASN, organisation and hosting flag of an address ("unknown" before the database is loaded). */
export function lookupIp(ip: string): IpInfo {
  const t = table;
  if (!t || !ip) return UNKNOWN_IP;
  const hit = cache.get(ip);
  if (hit) return hit;
  let addr = ip;
  if (addr.startsWith('::ffff:') && isIP(addr.slice(7)) === 4) addr = addr.slice(7);
  const version = isIP(addr);
  let asn = 0;
  if (version === 4) {
    const i = search(t.v4start, t.v4end, v4number(addr));
    if (i >= 0) asn = t.v4asn[i]!;
  } else if (version === 6) {
    const upper = v6upper(addr);
    const i = upper === null ? -1 : search(t.v6start, t.v6end, upper);
    if (i >= 0) asn = t.v6asn[i]!;
  }
  const info: IpInfo =
    asn > 0 ? { asn, org: t.orgs.get(asn) ?? null, country: null, hosting: t.hosting.has(asn) } : UNKNOWN_IP;
  if (cache.size >= 50_000) cache.clear();
  cache.set(ip, info);
  return info;
}
