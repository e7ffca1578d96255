import type { Locale } from './locales.ts';
import type { Rng } from './rng.ts';

/**
 * Client addresses. Residential: consumer ISP ranges per region, some IPv6, and mobile carriers
 * behind CGNAT (a few addresses shared by many people). Datacenter: cloud and proxy-host ranges.
 * The engine has no IP reputation data; the addresses matter through per-IP counters.
 */
const RESIDENTIAL_V4: Record<Locale['region'], string[]> = {
  us: ['73', '98', '24', '71', '76', '108', '174', '47', '68', '99'],
  ca: ['70', '142', '184', '99'],
  uk: ['86', '81', '82', '90', '92', '2'],
  de: ['91', '93', '84', '87', '79'],
  fr: ['90', '86', '92', '78', '2'],
  es: ['83', '88', '79', '95'],
  nl: ['84', '77', '62', '145'],
};
const RESIDENTIAL_V6: Record<Locale['region'], string> = {
  us: '2601',
  ca: '2607',
  uk: '2a00',
  de: '2003',
  fr: '2a01',
  es: '2a0c',
  nl: '2001',
};
/** Carrier-grade NAT pools: one public address serves thousands of phones. */
const CGNAT: Record<Locale['region'], string> = {
  us: '172.58.',
  ca: '174.89.',
  uk: '82.132.',
  de: '80.187.',
  fr: '80.214.',
  es: '88.26.',
  nl: '31.20.',
};

export const DATACENTER_PREFIXES = [
  '3.85',
  '18.204',
  '34.141',
  '35.236',
  '52.91',
  '54.172',
  '104.131',
  '159.203',
  '167.99',
  '51.75',
  '145.239',
  '116.203',
  '65.108',
];

export function residentialIp(rng: Rng, region: Locale['region']): string {
  if (rng.chance(0.22)) {
    const h = () => rng.hex(4).replace(/^0+(?=.)/, '');
    return `${RESIDENTIAL_V6[region]}:${h()}:${h()}:${h()}:${h()}:${h()}:${h()}:${h()}`;
  }
  return `${rng.pick(RESIDENTIAL_V4[region])}.${rng.int(1, 254)}.${rng.int(0, 255)}.${rng.int(1, 254)}`;
}

/** A mobile-carrier address: small pool per region, so phones share them. */
export function mobileCarrierIp(rng: Rng, region: Locale['region']): string {
  return `${CGNAT[region]}${rng.int(0, 3)}.${rng.int(1, 40)}`;
}

export function datacenterIp(rng: Rng, prefix = rng.pick(DATACENTER_PREFIXES)): string {
  return `${prefix}.${rng.int(0, 255)}.${rng.int(1, 254)}`;
}

/** A /24 block (e.g. a rented proxy subnet): `pick` returns one of its hosts. */
export function subnet24(rng: Rng, prefix: string): { cidr: string; pick: (hosts: number) => string } {
  const base = `${prefix}.${rng.int(0, 255)}`;
  const offset = rng.int(1, 120);
  return {
    cidr: `${base}.0/24`,
    pick: (hosts) => `${base}.${offset + rng.int(0, Math.min(133, hosts) - 1)}`,
  };
}
