/**
 * Autocomplete of the rule editor (docs/rules.md, "Variables"): the CEL variables and their
 * fields, the functions, every built-in signal as `signals.<name>` and the site's list names inside
 * `inList("…` / `ipInList("…`. Pure: the editor asks for the suggestions at the caret.
 */
export interface Completion {
  /** The text that replaces the word at the caret. */
  insert: string;
  detail: string;
}

const VARIABLES: Completion[] = [
  { insert: 'event', detail: 'the event as sent (map)' },
  { insert: 'features', detail: 'everything the engine computed (map)' },
  { insert: 'signals', detail: 'default signal name → score (map)' },
  { insert: 'identity', detail: 'the identity cluster (map)' },
  { insert: 'device', detail: 'device_id (map)' },
  { insert: 'ip', detail: 'address, version, country (map)' },
  { insert: 'score', detail: 'default risk score before rules (double)' },
];

const FIELDS: Record<string, string[]> = {
  event: [
    'type',
    'account_id',
    'email',
    'order_amount',
    'payment_hash',
    'promo_code',
    'ip',
    'user_agent',
    'request_url',
    'login_succeeded',
    'surface',
  ],
  identity: ['cluster_id', 'linked_accounts', 'shared_devices', 'shared_ips', 'shared_payments'],
  device: ['device_id'],
  ip: ['address', 'version', 'country'],
  features: [
    ...[
      'ip_1m',
      'ip_1h',
      'account_1m',
      'account_1h',
      'device_1m',
      'device_1h',
      'failed_logins_account_1h',
      'failed_logins_ip_1h',
      'accounts_per_device_24h',
      'accounts_per_ip_24h',
      'payments_per_account_24h',
      'payments_per_device_24h',
      'accounts_per_email_24h',
      'device_events_30d',
    ].map((h) => `history.${h}`),
    'ip.asn',
    'ip.org',
    'ip.country',
    'ip.hosting',
    'subnet',
    'email_domain',
    'email_disposable',
    'hardware_profile',
    'surface',
  ],
};

const FUNCTIONS: Completion[] = [
  { insert: 'inList("', detail: 'inList(listName, value): value on a list' },
  { insert: 'ipInList("', detail: 'ipInList(listName, ip): CIDR-aware' },
  { insert: 'emailDomain(', detail: 'emailDomain(email): the part after @' },
  { insert: 'has(', detail: 'has(map.key): the key is present' },
  { insert: 'size(', detail: 'size(string | list | map)' },
];

/** Every suggestion the editor may offer, given the signal catalogue and the site's list names. */
export function completionSource(signals: readonly string[], lists: readonly string[]) {
  const words: Completion[] = [
    ...VARIABLES,
    ...Object.entries(FIELDS).flatMap(([v, fields]) =>
      fields.map((f) => ({ insert: `${v}.${f}`, detail: `${v} field` })),
    ),
    ...signals.map((s) => ({ insert: `signals.${s}`, detail: 'built-in signal score' })),
    ...FUNCTIONS,
  ];
  return { words, lists: [...lists] };
}

/** The suggestions for the text before the caret: the word being typed and its replacements. */
export function completionsAt(
  source: ReturnType<typeof completionSource>,
  before: string,
  max = 8,
): { word: string; items: Completion[] } {
  const inList = /\b(?:inList|ipInList)\("([A-Za-z0-9_.:-]*)$/.exec(before);
  if (inList) {
    const word = inList[1] ?? '';
    const items = source.lists
      .filter((l) => l.startsWith(word) && l !== word)
      .map((l) => ({ insert: `${l}"`, detail: 'list' }));
    return { word, items: items.slice(0, max) };
  }
  const word = /[A-Za-z_][A-Za-z0-9_.]*$/.exec(before)?.[0] ?? '';
  if (word === '' || /[A-Za-z0-9_"]/.test(before.charAt(before.length - word.length - 1) || ' '))
    return { word, items: [] };
  const lower = word.toLowerCase();
  const items = source.words.filter((c) => c.insert.toLowerCase().startsWith(lower) && c.insert !== word);
  return { word, items: items.slice(0, max) };
}

/** Rule templates for common cases (the editor's "Start from a template"). */
export const RULE_TEMPLATES: Array<{
  name: string;
  title: string;
  expression: string;
  score: number | null;
  action: string | null;
}> = [
  {
    name: 'fast_ip_logins',
    title: 'Many logins from one IP in a minute',
    expression: 'event.type == "login" && features.history.ip_1m > 20.0',
    score: 30,
    action: null,
  },
  {
    name: 'block_listed_domains',
    title: 'E-mail domain on a block list',
    expression: 'inList("blocked_domains", emailDomain(event.email))',
    score: null,
    action: 'block',
  },
  {
    name: 'datacenter_checkout',
    title: 'Checkout from a hosting provider',
    expression: 'event.type == "checkout" && has(signals.datacenter_ip)',
    score: 25,
    action: 'review',
  },
  {
    name: 'ring_small_orders',
    title: 'Small orders from a linked ring',
    expression:
      'event.type == "checkout" && event.order_amount != null && event.order_amount < 2.0 && identity.linked_accounts >= 3',
    score: 40,
    action: null,
  },
  {
    name: 'foreign_signup',
    title: 'Signups from outside your countries',
    expression: 'event.type == "signup" && ip.country != null && !(ip.country in ["DE", "AT", "CH"])',
    score: 15,
    action: null,
  },
];
