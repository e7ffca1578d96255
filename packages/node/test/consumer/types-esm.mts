// Type-checked in the fresh project: the installed declarations resolve for import users.

import { type LoadOptions, load } from '@warden/browser';
import { type Decision, verifyWebhookSignature, Warden, type WardenOptions } from '@warden/node';
import { SqliteWebhookStore } from '@warden/node/receiver-sqlite';

const options: WardenOptions = { baseUrl: 'https://w.example', siteKey: 'pk', secretKey: 'sk' };
export async function decide(): Promise<Decision['action']> {
  return (await new Warden(options).verify({ context: { event_type: 'login', account_id: 'a' } })).action;
}
export const ok: boolean = verifyWebhookSignature('{}', 't=1,v1=00', 'whsec').valid;
export const store: SqliteWebhookStore = new SqliteWebhookStore(':memory:');
export const browser: typeof load = load;
export type BrowserOptions = LoadOptions;
// @ts-expect-error event_type is checked against the API's event types
export const wrong: Parameters<Warden['verify']>[0] = { context: { event_type: 'nope', account_id: 'a' } };
