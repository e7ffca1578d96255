import ipaddr from 'ipaddr.js';
import type { ListKind, ListsTable } from '../storage/rules-schema.ts';

/** Lists compiled for fast lookup: exact sets, plus CIDR ranges for IP lists. */
export interface ListMatcher {
  /** Is `value` on the list named `name` (of this site)? */
  has(name: string, value: string): boolean;
  /** Every allow/block list of `kind` that contains `value`. */
  matching(kind: ListKind, value: string): Array<{ name: string; type: 'allow' | 'block' }>;
}

interface CompiledList {
  name: string;
  kind: ListKind;
  type: 'allow' | 'block';
  values: Set<string>;
  ranges: Array<[ipaddr.IPv4 | ipaddr.IPv6, number]>;
}

export function normaliseEntry(kind: ListKind, value: string): string {
  const v = value.trim();
  if (kind === 'email' || kind === 'email_domain') return v.toLowerCase();
  if (kind === 'ip' && ipaddr.isValid(v)) return ipaddr.process(v).toString();
  return v;
}

/** A precise message when an entry cannot be on a list of `kind`, or null when it is fine. */
export function entryError(kind: ListKind, value: string): string | null {
  const v = value.trim();
  if (v === '' || v.length > 320) return 'must be 1 to 320 characters';
  if (kind === 'ip') {
    if (v.includes('/')) {
      try {
        ipaddr.parseCIDR(v);
        return null;
      } catch {
        return 'is not a valid CIDR range';
      }
    }
    return ipaddr.isValid(v) ? null : 'is not a valid IP address';
  }
  if (kind === 'email' && !/^[^@\s]+@[^@\s]+$/.test(v)) return 'is not an e-mail address';
  if (kind === 'email_domain' && !/^[a-z0-9.-]+\.[a-z]{2,}$/i.test(v)) return 'is not a domain';
  return null;
}

function compile(row: ListsTable): CompiledList {
  const list: CompiledList = {
    name: row.name,
    kind: row.kind,
    type: row.type,
    values: new Set(),
    ranges: [],
  };
  for (const raw of JSON.parse(row.entries) as string[]) {
    if (row.kind === 'ip' && raw.includes('/')) list.ranges.push(ipaddr.parseCIDR(raw));
    else list.values.add(normaliseEntry(row.kind, raw));
  }
  return list;
}

function contains(list: CompiledList, value: string): boolean {
  const v = normaliseEntry(list.kind, value);
  if (list.values.has(v)) return true;
  if (list.kind !== 'ip' || list.ranges.length === 0 || !ipaddr.isValid(v)) return false;
  const addr = ipaddr.process(v);
  return list.ranges.some(([range, bits]) => range.kind() === addr.kind() && addr.match(range, bits));
}

export function compileLists(rows: readonly ListsTable[]): ListMatcher {
  const lists = rows.map(compile);
  const byName = new Map(lists.map((l) => [l.name, l]));
  return {
    has: (name, value) => {
      const list = byName.get(name);
      return list !== undefined && value !== '' && contains(list, value);
    },
    matching: (kind, value) =>
      value === ''
        ? []
        : lists
            .filter((l) => l.kind === kind && contains(l, value))
            .map((l) => ({ name: l.name, type: l.type })),
  };
}
