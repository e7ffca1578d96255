import { lookup as dnsLookup } from 'node:dns/promises';
import ipaddr from 'ipaddr.js';
import { addressRefusal } from './address-policy.ts';

export interface UrlPolicy {
  /** WARDEN_UNSAFE_WEBHOOK_TARGETS: allow http, any port, loopback and private addresses. */
  unsafeTargets: boolean;
  /** Hostname suffixes of private platform names (e.g. `.internal`). */
  privateSuffixes: readonly string[];
}

export type UrlCheck = { ok: true; url: URL } | { ok: false; reason: string };

export const MAX_WEBHOOK_URL_LENGTH = 2048;

const LOOPBACK_NAMES = /^(localhost|[^.]+(\.[^.]+)*\.localhost)$/;

/** The authority as typed (before WHATWG normalisation), or null when there is none. */
function rawAuthorityOf(input: string): string | null {
  const match = input.trim().match(/^[a-z][a-z0-9+.-]*:[/\\]{2}([^/?#\\]*)/i);
  return match ? match[1]! : null;
}

/** The host as typed, without userinfo, port or brackets. */
export function rawHostOf(input: string): string | null {
  const authority = rawAuthorityOf(input);
  if (authority === null) return null;
  const host = authority.slice(authority.lastIndexOf('@') + 1);
  if (host.startsWith('[')) {
    const end = host.indexOf(']');
    return end === -1 ? host.slice(1) : host.slice(1, end);
  }
  return host.replace(/:\d*$/, '');
}

function decodeURIComponentSafe(value: string): string {
  try {
    return decodeURIComponent(value);
  } catch {
    return value;
  }
}

/** The parsed hostname as an IP literal (no brackets), or null for a domain name. */
export function ipLiteralOf(hostname: string): string | null {
  if (hostname.startsWith('[') && hostname.endsWith(']')) return hostname.slice(1, -1);
  return ipaddr.IPv4.isValidFourPartDecimal(hostname) ? hostname : null;
}

function checkDomainName(hostname: string, policy: UrlPolicy): string | null {
  const name = hostname.endsWith('.') ? hostname.slice(0, -1) : hostname;
  if (LOOPBACK_NAMES.test(name)) {
    return policy.unsafeTargets ? null : `${name} is a loopback host name`;
  }
  for (const suffix of policy.privateSuffixes) {
    const bare = suffix.replace(/^\./, '').toLowerCase();
    if (bare && (name === bare || name.endsWith(`.${bare}`))) {
      return `${name} is a private platform host name (*.${bare})`;
    }
  }
  if (!name.includes('.') && !policy.unsafeTargets) {
    return `${name} is not a fully qualified public domain name`;
  }
  return null;
}

/** The rules of interface 6.1, checked when a URL is saved and again before every attempt. */
export function checkWebhookUrl(input: string, policy: UrlPolicy): UrlCheck {
  if (input.length > MAX_WEBHOOK_URL_LENGTH) {
    return { ok: false, reason: `the URL is longer than ${MAX_WEBHOOK_URL_LENGTH} characters` };
  }
  let url: URL;
  try {
    url = new URL(input);
  } catch {
    return { ok: false, reason: 'not a valid absolute URL' };
  }
  const allowedSchemes = policy.unsafeTargets ? ['https:', 'http:'] : ['https:'];
  if (!allowedSchemes.includes(url.protocol)) {
    return { ok: false, reason: `the scheme must be https, got ${url.protocol.replace(/:$/, '')}` };
  }
  const rawAuthority = rawAuthorityOf(input);
  const rawHost = rawHostOf(input);
  if (url.username !== '' || url.password !== '' || rawAuthority?.includes('@')) {
    return { ok: false, reason: 'the URL must not contain credentials (user:password@)' };
  }
  if (!policy.unsafeTargets && url.port !== '' && url.port !== '443') {
    return { ok: false, reason: `the port must be 443, got ${url.port}` };
  }
  if (rawHost === null) return { ok: false, reason: 'the URL has no host' };
  const hostname = url.hostname.toLowerCase();
  if (hostname === '') return { ok: false, reason: 'the URL has no host' };
  const literal = ipLiteralOf(hostname);
  // Numeric hosts other than the canonical dotted quad (2130706433, 0x7f.1, 0177.0.0.1, 127.1, and
  // the full-width digits, ideographic dots or stray tabs the URL parser also reads) are refused:
  // they are only ever used to slip past filters.
  if (literal && !literal.includes(':') && decodeURIComponentSafe(rawHost) !== literal) {
    return {
      ok: false,
      reason: `${rawHost} is an IPv4 address in a non-standard (decimal, hex, octal…) form`,
    };
  }
  const refusal = literal ? addressRefusal(literal, policy.unsafeTargets) : checkDomainName(hostname, policy);
  return refusal ? { ok: false, reason: refusal } : { ok: true, url };
}

export type LookupAll = (hostname: string) => Promise<Array<{ address: string; family: number }>>;

export const systemLookup: LookupAll = (hostname) => dnsLookup(hostname, { all: true, verbatim: true });

export type TargetCheck =
  | { ok: true; url: URL; address: string; family: 4 | 6 }
  | { ok: false; reason: string };

/**
 * Send-time check: the URL rules again, then DNS resolved here and every answer validated. The
 * caller connects to `address` only, so a rebinding DNS answer cannot redirect the request.
 */
export async function resolveWebhookTarget(
  input: string,
  policy: UrlPolicy,
  lookup: LookupAll = systemLookup,
): Promise<TargetCheck> {
  const checked = checkWebhookUrl(input, policy);
  if (!checked.ok) return checked;
  const hostname = checked.url.hostname.toLowerCase();
  const literal = ipLiteralOf(hostname);
  if (literal) return { ok: true, url: checked.url, address: literal, family: literal.includes(':') ? 6 : 4 };
  let answers: Array<{ address: string; family: number }>;
  try {
    answers = await lookup(hostname.replace(/\.$/, ''));
  } catch (err) {
    const code = (err as { code?: string }).code ?? 'lookup failed';
    return { ok: false, reason: `DNS lookup of ${hostname} failed (${code})` };
  }
  if (answers.length === 0) return { ok: false, reason: `DNS lookup of ${hostname} returned no address` };
  for (const answer of answers) {
    const refusal = addressRefusal(answer.address, policy.unsafeTargets);
    if (refusal) return { ok: false, reason: `${hostname} resolves to ${refusal}` };
  }
  const first = answers[0]!;
  return { ok: true, url: checked.url, address: first.address, family: first.family === 6 ? 6 : 4 };
}

/** How long a save waits for DNS before accepting the name (it is checked again at every send). */
export const SAVE_LOOKUP_TIMEOUT_MS = 2_000;

/**
 * Save-time check: the URL rules, then the name's current DNS answers. A name whose answers
 * include a blocked address is refused now (it would be refused at every send); a name that does
 * not resolve yet, or whose lookup takes longer than `timeoutMs`, is accepted: deliveries resolve
 * it again and are refused while it stays unresolvable or blocked.
 */
export async function checkWebhookUrlOnSave(
  input: string,
  policy: UrlPolicy,
  lookup: LookupAll = systemLookup,
  timeoutMs = SAVE_LOOKUP_TIMEOUT_MS,
): Promise<UrlCheck> {
  const checked = checkWebhookUrl(input, policy);
  if (!checked.ok) return checked;
  let timer: NodeJS.Timeout | undefined;
  const timedOut = new Promise<'timeout'>((resolve) => {
    timer = setTimeout(() => resolve('timeout'), timeoutMs);
  });
  try {
    const target = await Promise.race([resolveWebhookTarget(input, policy, lookup), timedOut]);
    if (target === 'timeout' || target.ok) return checked;
    return /^DNS lookup of .* (failed|returned no address)/.test(target.reason) ? checked : target;
  } finally {
    clearTimeout(timer);
  }
}
