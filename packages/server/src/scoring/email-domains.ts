/**
 * A small built-in list of disposable e-mail domains (the largest public services). Sites with
 * stronger needs add their own lists through custom rules.
 */
const DISPOSABLE = new Set([
  '10minutemail.com',
  '10minutemail.net',
  '20minutemail.com',
  'anonaddy.me',
  'burnermail.io',
  'dispostable.com',
  'dropmail.me',
  'emailondeck.com',
  'fakeinbox.com',
  'fakemail.net',
  'getairmail.com',
  'getnada.com',
  'guerrillamail.biz',
  'guerrillamail.com',
  'guerrillamail.de',
  'guerrillamail.info',
  'guerrillamail.net',
  'guerrillamail.org',
  'guerrillamailblock.com',
  'harakirimail.com',
  'inboxbear.com',
  'incognitomail.org',
  'mailcatch.com',
  'maildrop.cc',
  'mailinator.com',
  'mailinator.net',
  'mailnesia.com',
  'mailpoof.com',
  'mintemail.com',
  'moakt.com',
  'mohmal.com',
  'mytemp.email',
  'nada.email',
  'sharklasers.com',
  'spam4.me',
  'spambog.com',
  'spamgourmet.com',
  'temp-mail.io',
  'temp-mail.org',
  'tempail.com',
  'tempmail.com',
  'tempmail.dev',
  'tempmail.net',
  'tempmailo.com',
  'tempr.email',
  'throwawaymail.com',
  'trashmail.com',
  'trashmail.de',
  'trashmail.net',
  'yopmail.com',
  'yopmail.fr',
  'yopmail.net',
]);

const DISPOSABLE_WORDS = /(^|[.-])(temp|tmp|trash|throwaway|disposable|burner|fake|spam)[a-z0-9-]*mail/;

/** Exact list match (also for subdomains), or a name that says what it is (e.g. "tempmail-x.com"). */
export function isDisposableDomain(domain: string): boolean {
  const d = domain.toLowerCase();
  if (DISPOSABLE.has(d)) return true;
  let dot = d.indexOf('.');
  while (dot !== -1) {
    if (DISPOSABLE.has(d.slice(dot + 1))) return true;
    dot = d.indexOf('.', dot + 1);
  }
  return DISPOSABLE_WORDS.test(d);
}
