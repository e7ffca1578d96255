import { ENTITY_KINDS, type EntityKind } from '@warden/protocol/vocabulary';
import { fromLocalInput, toLocalInput } from './format.ts';
import { BASE } from './router.ts';

/** The decisions list's filters: kept in the URL (a saved view is a URL), sent as the API's query. */
export interface Filters {
  /** Free text over the identity fields (the search box). */
  q: string;
  eventType: string;
  classification: string;
  action: string;
  from: string;
  to: string;
  accountId: string;
  ip: string;
  ipPrefix: string;
  deviceId: string;
  email: string;
  emailDomain: string;
  paymentHash: string;
  promoCode: string;
  clusterId: string;
  signal: string;
  /** With a custom rule as `signal`: `live` or `shadow` matches only. */
  match: string;
  country: string;
  asn: string;
  label: string;
  minScore: string;
  maxScore: string;
}

export const EMPTY: Filters = {
  q: '',
  eventType: '',
  classification: '',
  action: '',
  from: '',
  to: '',
  accountId: '',
  ip: '',
  ipPrefix: '',
  deviceId: '',
  email: '',
  emailDomain: '',
  paymentHash: '',
  promoCode: '',
  clusterId: '',
  signal: '',
  match: '',
  country: '',
  asn: '',
  label: '',
  minScore: '',
  maxScore: '',
};
export function filtersFromUrl(): Filters {
  const params = new URLSearchParams(location.search);
  const out = { ...EMPTY };
  for (const key of Object.keys(EMPTY) as (keyof Filters)[]) out[key] = params.get(key) ?? '';
  return out;
}

/** The filters as the API's query (times converted from the local inputs, text trimmed). */
export function filterQuery(siteId: string, f: Filters) {
  const q: Record<string, string> = { siteId };
  for (const [key, value] of Object.entries(f) as Array<[keyof Filters, string]>) {
    if (key === 'from' || key === 'to') continue;
    const v = value.trim();
    if (v !== '') q[key] = v;
  }
  const from = fromLocalInput(f.from);
  const to = fromLocalInput(f.to);
  if (from) q.from = from;
  if (to) q.to = to;
  return q;
}

/** The one entity the list is filtered by, if exactly one entity filter is set (a pivot). */
export function pivotOf(f: Filters): { kind: EntityKind; value: string } | null {
  const set = ENTITY_KINDS.filter((k) => f[k].trim() !== '');
  const kind = set.length === 1 ? set[0] : undefined;
  return kind ? { kind, value: f[kind].trim() } : null;
}

/**
 * A link to the decisions list with these filters (a saved view): `from`/`to` given as ISO times
 * are written as the list's local date-time inputs (whole minutes).
 */
export function decisionsHref(filters: Partial<Filters>): string {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(filters) as Array<[keyof Filters, string]>) {
    if (!value) continue;
    if (key === 'from' || key === 'to') {
      // The inputs hold whole minutes: `from` rounds down, `to` up, so the period stays inside.
      const ms = Date.parse(value);
      params.set(key, toLocalInput(new Date(key === 'to' ? Math.ceil(ms / 60_000) * 60_000 : ms)));
    } else params.set(key, value);
  }
  return `${BASE}/decisions?${params.toString()}`;
}
