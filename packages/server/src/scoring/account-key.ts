/**
 * Which `context.account_id` values name an account (SPEC §11, "Accounts that are not accounts").
 * A page view before sign-in, or a form that sends a stand-in, is sent with a placeholder; counting
 * it would make every visitor of a device, IP, token or mailbox "another account" of everyone else
 * who sent the same placeholder. These values (compared trimmed and case-insensitively) are no
 * account: docs/signals.md, "Placeholder accounts".
 */
export const PLACEHOLDER_ACCOUNTS: ReadonlySet<string> = new Set([
  '',
  'anonymous',
  'anon',
  'guest',
  'visitor',
  'unknown',
  'none',
  'null',
  'nil',
  'undefined',
  'n/a',
  '-',
]);

/**
 * The account an event counts for: the id as sent, or "" (no account) for a placeholder. Every
 * account-keyed count (velocity, fan-out, token reuse, payments, failed logins) and the identity
 * clusters key on this, never on the raw id; the decision still records the id as sent.
 */
export function countedAccount(accountId: string): string {
  return PLACEHOLDER_ACCOUNTS.has(accountId.trim().toLowerCase()) ? '' : accountId;
}
