import { isIP } from 'node:net';

/**
 * The network an address belongs to, for aggregating counters across rotating hosts: IPv4 /24
 * (`203.0.113.0/24`), IPv6 /64 (one customer LAN: `2001:db8:1:2::/64`). IPv4-mapped IPv6
 * addresses count as IPv4. "" for anything that is not an address.
 */
export function subnetKey(ip: string): string {
  if (!ip) return '';
  let addr = ip;
  if (addr.startsWith('::ffff:') && isIP(addr.slice(7)) === 4) addr = addr.slice(7);
  const version = isIP(addr);
  if (version === 4) return `${addr.slice(0, addr.lastIndexOf('.'))}.0/24`;
  if (version !== 6) return '';
  const groups = expandV6(addr);
  return groups ? `${groups.slice(0, 4).join(':')}::/64` : '';
}

/** The eight hextets of an IPv6 address, lower case without leading zeros (null if malformed). */
function expandV6(addr: string): string[] | null {
  const zone = addr.indexOf('%');
  const a = (zone >= 0 ? addr.slice(0, zone) : addr).toLowerCase();
  const [head = '', tail] = a.split('::') as [string, string | undefined];
  const part = (s: string) => (s === '' ? [] : s.split(':'));
  const left = part(head);
  const right = tail === undefined ? [] : part(tail);
  // An embedded IPv4 tail (::ffff:1.2.3.4 forms other than mapped) takes two hextets.
  const last = right.length > 0 ? right : left;
  if (last.length > 0 && last[last.length - 1]!.includes('.')) {
    const v4 = last.pop()!.split('.').map(Number);
    last.push(((v4[0]! << 8) | v4[1]!).toString(16), ((v4[2]! << 8) | v4[3]!).toString(16));
  }
  const missing = 8 - left.length - right.length;
  if (missing < 0 || (tail === undefined && missing !== 0)) return null;
  const groups = [...left, ...Array<string>(missing).fill('0'), ...right];
  return groups.map((g) => (Number.parseInt(g, 16) || 0).toString(16));
}
