import ipaddr from 'ipaddr.js';

/**
 * Which IP addresses a webhook may reach. Categories in `RELAXABLE` are allowed only in
 * WARDEN_UNSAFE_WEBHOOK_TARGETS mode; every other listed range is always refused.
 */
export type AddressCategory =
  | 'metadata'
  | 'loopback'
  | 'private'
  | 'unspecified'
  | 'link-local'
  | 'cgnat'
  | 'documentation'
  | 'benchmarking'
  | 'multicast'
  | 'broadcast'
  | 'reserved'
  | 'ipv4-mapped'
  | 'translated'
  | 'public';

const RELAXABLE: ReadonlySet<AddressCategory> = new Set(['loopback', 'private']);

type Range = readonly [cidr: string, category: AddressCategory];

/** Checked in order: the first match wins, so specific entries (metadata) come first. */
const IPV4_RANGES: readonly Range[] = [
  ['169.254.169.254/32', 'metadata'], // AWS, GCP, Azure, OpenStack instance metadata
  ['169.254.170.2/32', 'metadata'], // AWS ECS task metadata
  ['168.63.129.16/32', 'metadata'], // Azure wire server
  ['100.100.100.200/32', 'metadata'], // Alibaba Cloud metadata
  ['0.0.0.0/8', 'unspecified'],
  ['10.0.0.0/8', 'private'],
  ['100.64.0.0/10', 'cgnat'],
  ['127.0.0.0/8', 'loopback'],
  ['169.254.0.0/16', 'link-local'],
  ['172.16.0.0/12', 'private'],
  ['192.0.0.0/24', 'reserved'], // IETF protocol assignments
  ['192.0.2.0/24', 'documentation'],
  ['192.31.196.0/24', 'reserved'], // AS112
  ['192.52.193.0/24', 'reserved'], // AMT
  ['192.88.99.0/24', 'reserved'], // 6to4 relay anycast (deprecated)
  ['192.168.0.0/16', 'private'],
  ['192.175.48.0/24', 'reserved'], // AS112 direct delegation
  ['198.18.0.0/15', 'benchmarking'],
  ['198.51.100.0/24', 'documentation'],
  ['203.0.113.0/24', 'documentation'],
  ['224.0.0.0/4', 'multicast'],
  ['255.255.255.255/32', 'broadcast'],
  ['240.0.0.0/4', 'reserved'],
];

const IPV6_RANGES: readonly Range[] = [
  ['fd00:ec2::254/128', 'metadata'], // AWS instance metadata over IPv6
  ['::/128', 'unspecified'],
  ['::1/128', 'loopback'],
  ['::ffff:0:0/96', 'ipv4-mapped'],
  ['::/96', 'reserved'], // IPv4-compatible (deprecated)
  ['64:ff9b::/96', 'translated'], // NAT64 well-known prefix
  ['64:ff9b:1::/48', 'translated'], // NAT64 local use
  ['100::/64', 'reserved'], // discard only
  ['2001:2::/48', 'benchmarking'],
  ['2001:db8::/32', 'documentation'],
  ['2001::/23', 'reserved'], // IETF protocol assignments, Teredo, ORCHID
  ['2002::/16', 'translated'], // 6to4
  ['3fff::/20', 'documentation'],
  ['5f00::/16', 'reserved'], // SRv6 SIDs
  ['fc00::/7', 'private'], // unique local
  ['fe80::/10', 'link-local'],
  ['fec0::/10', 'reserved'], // site-local (deprecated)
  ['ff00::/8', 'multicast'],
];

type ParsedRange = readonly [range: [ipaddr.IPv4 | ipaddr.IPv6, number], category: AddressCategory];

const parsedV4: readonly ParsedRange[] = IPV4_RANGES.map(([cidr, c]) => [ipaddr.parseCIDR(cidr), c]);
const parsedV6: readonly ParsedRange[] = IPV6_RANGES.map(([cidr, c]) => [ipaddr.parseCIDR(cidr), c]);
const GLOBAL_UNICAST_V6 = ipaddr.parseCIDR('2000::/3');

/** The category of one literal address (dotted-quad IPv4 or IPv6 without brackets). */
export function classifyAddress(address: string): AddressCategory {
  if (ipaddr.IPv4.isValidFourPartDecimal(address)) {
    const ip = ipaddr.IPv4.parse(address);
    for (const [range, category] of parsedV4) if (ip.match(range)) return category;
    return 'public';
  }
  if (!ipaddr.IPv6.isValid(address) || address.includes('%')) return 'reserved';
  const ip = ipaddr.IPv6.parse(address);
  for (const [range, category] of parsedV6) if (ip.match(range)) return category;
  // Only 2000::/3 is allocated global unicast; anything else is unassigned.
  return ip.match(GLOBAL_UNICAST_V6) ? 'public' : 'reserved';
}

const REASONS: Record<AddressCategory, string> = {
  metadata: 'is a cloud metadata address',
  loopback: 'is a loopback address',
  private: 'is a private address',
  unspecified: 'is an unspecified address',
  'link-local': 'is a link-local address',
  cgnat: 'is a carrier-grade NAT (shared) address',
  documentation: 'is a documentation address',
  benchmarking: 'is a benchmarking address',
  multicast: 'is a multicast address',
  broadcast: 'is a broadcast address',
  reserved: 'is a reserved or unassigned address',
  'ipv4-mapped': 'is an IPv4-mapped IPv6 address',
  translated: 'is an address that embeds an IPv4 address (NAT64/6to4)',
  public: 'is public',
};

/** Why `address` may not be reached, or null when it may. */
export function addressRefusal(address: string, unsafeTargets: boolean): string | null {
  const category = classifyAddress(address);
  if (category === 'public') return null;
  if (unsafeTargets && RELAXABLE.has(category)) return null;
  return `${address} ${REASONS[category]}`;
}
