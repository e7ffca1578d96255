import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { isIP } from 'node:net';
import path from 'node:path';
import { PACKAGES_DIR } from '../paths.ts';
import { classifyAddress } from '../webhooks/address-policy.ts';
import {
  findRange,
  packCountry,
  type RangeTable,
  readRanges,
  unpackCountry,
  v4number,
  v6upper,
} from './ip-ranges.ts';

/** Country of an address: geo-whois-asn-country (CC0; RIR delegations and WHOIS). */
const COUNTRY_PACKAGE = '@ip-location-db/geo-whois-asn-country';
const COUNTRY_FILE = 'geo-whois-asn-country';

/**
 * Offline IP intelligence: the autonomous system (ASN, organisation) of an address from the
 * `@ip-location-db/asn` package (RouteViews + DB-IP, CC BY 4.0; CSV ranges shipped in
 * node_modules, no network access), whether that network is a hosting/cloud provider, and the
 * country from `@ip-location-db/geo-whois-asn-country` (CC0).
 *
 * Loaded once per process in the background (≈ 1–2 s, ≈ 20 MB); lookups before it is ready,
 * or without the packages, answer "unknown". `WARDEN_IP_DB=off` disables it;
 * `WARDEN_IP_DB_DIR=/path` reads `asn-ipv{4,6}-num.csv` and `geo-whois-asn-country-ipv{4,6}-num.csv`
 * from another directory when they are there (a newer download). Update:
 * `npm update @ip-location-db/asn @ip-location-db/geo-whois-asn-country -w packages/server`.
 */
export interface IpInfo {
  asn: number | null;
  org: string | null;
  /** ISO 3166-1 alpha-2 country of the address's network (registry data), or null. */
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
  asn4: RangeTable<Uint32Array>;
  asn6: RangeTable<BigUint64Array>;
  /** Country ranges (`@ip-location-db/geo-whois-asn-country`); empty when not installed. */
  country4: RangeTable<Uint32Array>;
  country6: RangeTable<BigUint64Array>;
  orgs: Map<number, string>;
  hosting: Set<number>;
}

export interface IpDatabaseOptions {
  enabled: boolean;
  dir: string | undefined;
}

/**
 * Where the installed server package (`npm run package`, scripts/package.ts) keeps compact copies
 * of both packages' tables, read the same way.
 */
const PACKAGED_TABLES = path.join(PACKAGES_DIR, 'ip-db');

function packageDir(options: IpDatabaseOptions, pkg: string, probe: string): string | null {
  if (options.dir && existsSync(path.join(options.dir, probe))) return options.dir;
  try {
    const require = createRequire(import.meta.url);
    return path.dirname(require.resolve(`${pkg}/package.json`));
  } catch {
    return existsSync(path.join(PACKAGED_TABLES, probe)) ? PACKAGED_TABLES : null;
  }
}

function unquote(s: string): string {
  return s.startsWith('"') && s.endsWith('"') ? s.slice(1, -1).replaceAll('""', '"') : s;
}

/**
 * A copy of `s` that does not share memory with the string it was cut from: V8 keeps a slice as a
 * view of its parent, so each kept organisation name would otherwise hold a whole 1 MiB chunk of
 * the CSV file in memory (tens of megabytes in all).
 */
function detached(s: string): string {
  return Buffer.from(s, 'utf8').toString('utf8');
}

/** `asn,org` after the range: the ASN, remembering its organisation. */
function asnValue(orgs: Map<number, string>) {
  return (rest: string): number => {
    const comma = rest.indexOf(',');
    const asn = Number(comma < 0 ? rest : rest.slice(0, comma));
    if (!Number.isSafeInteger(asn) || asn <= 0) return 0;
    if (!orgs.has(asn)) orgs.set(asn, comma < 0 ? '' : detached(unquote(rest.slice(comma + 1))));
    return asn;
  };
}

/** One file at a time, streamed: only the typed arrays stay in memory. */
async function load(options: IpDatabaseOptions): Promise<Table | null> {
  if (!options.enabled) return null;
  const asnDir = packageDir(options, '@ip-location-db/asn', 'asn-ipv4-num.csv');
  if (!asnDir) return null;
  const orgs = new Map<number, string>();
  const asn4 = await readRanges<Uint32Array>(path.join(asnDir, 'asn-ipv4-num.csv'), false, asnValue(orgs));
  const asn6 = await readRanges<BigUint64Array>(path.join(asnDir, 'asn-ipv6-num.csv'), true, asnValue(orgs));
  if (asn4.values.length === 0) return null;
  const hosting = new Set<number>();
  for (const [asn, org] of orgs) if (isHostingNetwork(asn, org)) hosting.add(asn);
  // Without the country package the paths do not exist and the tables stay empty.
  const countryDir = packageDir(options, COUNTRY_PACKAGE, `${COUNTRY_FILE}-ipv4-num.csv`) ?? '/nonexistent';
  const country4 = await readRanges<Uint32Array>(
    path.join(countryDir, `${COUNTRY_FILE}-ipv4-num.csv`),
    false,
    packCountry,
  );
  const country6 = await readRanges<BigUint64Array>(
    path.join(countryDir, `${COUNTRY_FILE}-ipv6-num.csv`),
    true,
    packCountry,
  );
  return { asn4, asn6, country4, country6, orgs, hosting };
}

/** The ASN and packed country of `ip` (0: not found), its version and number worked out once. */
function rangeValues(ip: string, t: Table): { asn: number; cc: number } {
  const version = isIP(ip);
  if (version === 4) {
    const n = v4number(ip);
    const a = findRange(t.asn4.starts, t.asn4.ends, n);
    const c = findRange(t.country4.starts, t.country4.ends, n);
    return { asn: a >= 0 ? t.asn4.values[a]! : 0, cc: c >= 0 ? t.country4.values[c]! : 0 };
  }
  const upper = version === 6 ? v6upper(ip) : null;
  if (upper === null) return { asn: 0, cc: 0 };
  const a = findRange(t.asn6.starts, t.asn6.ends, upper);
  const c = findRange(t.country6.starts, t.country6.ends, upper);
  return { asn: a >= 0 ? t.asn6.values[a]! : 0, cc: c >= 0 ? t.country6.values[c]! : 0 };
}

/** Lookups remembered per address (bounded: emptied when full). */
const LOOKUP_CACHE_ENTRIES = 50_000;

/**
 * The IP intelligence of one process (built once, in services.ts): the table, loaded in the
 * background on the first `ready()` with the options given to the constructor, and the answers
 * remembered per address.
 */
export class IpIntel {
  private table: Table | null = null;
  private loading: Promise<void> | null = null;
  private readonly cache = new Map<string, IpInfo>();

  constructor(private readonly options: IpDatabaseOptions = { enabled: true, dir: undefined }) {}

  /** Start loading the database (once); resolves when ready or unavailable. */
  ready(): Promise<void> {
    this.loading ??= load(this.options).then(
      (t) => {
        this.table = t;
      },
      () => {
        this.table = null;
      },
    );
    return this.loading;
  }

  /** ASN, organisation, country and hosting flag of an address ("unknown" before the database is loaded). */
  lookup(ip: string): IpInfo {
    const t = this.table;
    if (!t || !ip) return UNKNOWN_IP;
    const cache = this.cache;
    const hit = cache.get(ip);
    if (hit) return hit;
    let addr = ip;
    if (addr.startsWith('::ffff:') && isIP(addr.slice(7)) === 4) addr = addr.slice(7);
    let info = UNKNOWN_IP;
    // Registry delegations span reserved blocks (documentation, private, CGNAT…): those have no owner.
    if (classifyAddress(addr) === 'public') {
      const { asn, cc } = rangeValues(addr, t);
      const country = cc > 0 ? unpackCountry(cc) : null;
      if (asn > 0 || country) {
        info = {
          asn: asn > 0 ? asn : null,
          org: asn > 0 ? (t.orgs.get(asn) ?? null) : null,
          country,
          hosting: asn > 0 && t.hosting.has(asn),
        };
      }
    }
    if (cache.size >= LOOKUP_CACHE_ENTRIES) cache.clear();
    cache.set(ip, info);
    return info;
  }
}
