import { getAllCountries, getTimezone } from 'countries-and-timezones';
import type { Signal } from '../engine-types.ts';
import { emit, type SignalFamily } from './types.ts';

/**
 * Where the address is (offline ASN and country databases, ip-intel.ts): people browse from home,
 * office and mobile networks; scripts and proxies run in hosting and cloud networks. VPN users
 * also exit there, so the signal is moderate and never decides alone. A residential address in
 * one country with a browser clock set for another region is a residential proxy (or a
 * traveller): a small score.
 */
/** UTC offsets (standard and summer time) in minutes of a zone, or null when unknown. */
function offsets(zone: string): number[] | null {
  const tz = getTimezone(zone);
  return tz ? [tz.utcOffset, tz.dstOffset] : null;
}

/**
 * Every UTC offset (standard and summer time) one of a country's zones keeps, per country code:
 * built once when the module loads from the library's fixed tables, never changed after.
 */
const COUNTRY_OFFSETS: ReadonlyMap<string, ReadonlySet<number>> = countryOffsets();

function countryOffsets(): Map<string, Set<number>> {
  const out = new Map<string, Set<number>>();
  for (const country of Object.values(getAllCountries())) {
    const kept = new Set<number>();
    for (const zone of country.timezones) for (const minutes of offsets(zone) ?? []) kept.add(minutes);
    out.set(country.id, kept);
  }
  return out;
}

/**
 * Whether a browser time zone fits the country of its address: the zone belongs to the country,
 * or keeps the same clock as one of the country's zones (neighbours across a border share one).
 * null when either is unknown (UTC, Etc/… zones, unknown names).
 */
export function timezoneFitsCountry(zone: string, country: string): boolean | null {
  const tz = getTimezone(zone);
  const kept = COUNTRY_OFFSETS.get(country);
  if (!tz || !kept || tz.countries.length === 0) return null;
  if ((tz.countries as readonly string[]).includes(country)) return true;
  return kept.has(tz.utcOffset) || kept.has(tz.dstOffset);
}

export const network: SignalFamily = {
  name: 'network',
  rules: {
    datacenter_ip: {
      score: 20,
      description: 'The address belongs to a hosting or cloud provider (datacenter, VPN or proxy exit).',
    },
    timezone_country_mismatch: {
      score: 15,
      description:
        "The browser's time zone keeps a clock no zone of the IP address's country keeps (a proxy in another region).",
    },
  },
  evaluate(f) {
    const out: Signal[] = [];
    if (f.ip.hosting) {
      out.push(
        emit(this, 'datacenter_ip', {
          description:
            `The address belongs to AS${f.ip.asn} ${f.ip.org ?? ''}, a hosting or cloud network.`.trim(),
        }),
      );
    }
    // Hosting exits are VPNs and proxies already: their country says nothing about the person.
    if (
      !f.ip.hosting &&
      f.ip.country &&
      f.timezone &&
      timezoneFitsCountry(f.timezone, f.ip.country) === false
    ) {
      out.push(
        emit(this, 'timezone_country_mismatch', {
          description: `Time zone ${f.timezone} does not fit an address in ${f.ip.country}.`,
        }),
      );
    }
    return out;
  },
};
