import type { EntityKind } from '@warden/protocol/vocabulary';
import { BASE } from './router.ts';

/**
 * The entities a fraud analyst pivots on. `kind` is the decisions filter (and the entity summary
 * kind) that selects the entity; a pivot is just a decisions URL, so a saved view is a bookmark.
 */
export type { EntityKind };

export const ENTITY_LABELS: Record<EntityKind, string> = {
  accountId: 'Account',
  ip: 'IP address',
  ipPrefix: 'Network',
  deviceId: 'Device',
  email: 'E-mail',
  emailDomain: 'E-mail domain',
  paymentHash: 'Payment hash',
  promoCode: 'Promo code',
  clusterId: 'Cluster',
};

/** The decisions list filtered by one entity: `/dashboard/decisions?ip=203.0.113.7`. */
export function pivotHref(kind: EntityKind, value: string): string {
  return `${BASE}/decisions?${new URLSearchParams({ [kind]: value }).toString()}`;
}

/**
 * The network the server groups an address into, as the `ipPrefix` filter value: IPv4 /24
 * (`203.0.113.0/24`, also for `::ffff:203.0.113.7`) or, for IPv6, the address with `/64` (the
 * server normalises it). null for anything else.
 */
export function networkOf(ip: string): string | null {
  const v4 = /^(?:::ffff:)?(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.\d{1,3}$/i.exec(ip);
  if (v4) return `${v4[1]}.${v4[2]}.${v4[3]}.0/24`;
  if (ip.includes(':') && /^[0-9a-f:.]+$/i.test(ip)) return `${ip}/64`;
  return null;
}

/** `a@Example.COM` → `example.com`; null without an `@`. */
export function emailDomainOf(email: string): string | null {
  const at = email.lastIndexOf('@');
  return at > 0 && at < email.length - 1 ? email.slice(at + 1).toLowerCase() : null;
}
