// Type-checked in the fresh project: the installed declarations resolve for require users.
import sdk = require('@warden/node');
import sqlite = require('@warden/node/receiver-sqlite');

export const warden: sdk.Warden = new sdk.Warden({
  baseUrl: 'https://w.example',
  siteKey: 'pk',
  secretKey: 'sk',
});
export const store: sqlite.SqliteWebhookStore = new sqlite.SqliteWebhookStore(':memory:');
export const action: sdk.Decision['action'] = 'allow';
