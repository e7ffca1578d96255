// Runs in a fresh project where @warden/node was installed from its npm tarball (see
// ../installed-package.test.ts): `sdk` and `sqlite` are the package's two entry points, loaded
// with import (check.mjs) or require (check.cjs). Prints one JSON line with what it saw.
const crypto = require('node:crypto');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');

module.exports = async function scenario(sdk, sqlite) {
  const result = {};
  try {
    new sdk.Warden({});
  } catch (err) {
    result.badOptions = { name: err.name, message: err.message };
  }

  const warden = new sdk.Warden({
    baseUrl: process.env.WARDEN_URL,
    siteKey: process.env.WARDEN_SITE_KEY,
    secretKey: process.env.WARDEN_SECRET_KEY,
  });
  const decision = await warden.verify({
    context: { event_type: 'login', account_id: 'acct_packed', ip_address: '203.0.113.9' },
  });
  result.decision = { action: decision.action, requestId: decision.request_id };
  try {
    await new sdk.Warden({ ...warden.options, secretKey: 'sk_wrong', maxRetries: 0 }).verify({
      context: { event_type: 'login', account_id: 'acct_packed' },
    });
  } catch (err) {
    result.wrongKey = { isWardenError: err instanceof sdk.WardenError, status: err.status, code: err.code };
  }

  const secret = 'whsec_packed_test';
  const id = crypto.randomUUID();
  const now = new Date().toISOString();
  const event = {
    id,
    type: 'decision.created',
    createdAt: now,
    data: {
      id: `req_${id.slice(0, 8)}`,
      siteId: 'site_1',
      accountId: 'acct_packed',
      type: 'login',
      riskScore: 90,
      riskLevel: 'critical',
      classification: 'bot',
      signals: {},
      rulesTriggered: [],
      deviceFingerprint: '',
      ipAddress: '',
      userAgent: '',
      metadata: { action: 'block', decisionMs: 1, signalEvidence: [] },
      createdAt: now,
    },
  };
  const raw = JSON.stringify(event);
  const signature = sdk.signWebhookPayload(raw, secret);
  result.signature = {
    good: sdk.verifyWebhookSignature(raw, signature, secret).valid,
    tampered: sdk.verifyWebhookSignature(raw.replace('bot', 'human'), signature, secret),
  };

  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'warden-packed-receiver-'));
  const store = new sqlite.SqliteWebhookStore(path.join(dir, 'events.db'));
  const processed = [];
  const receiver = sdk.createWebhookReceiver({
    secret,
    store,
    process: async (e) => {
      processed.push(e.data.accountId);
    },
  });
  const headers = { 'service-signature': signature, 'service-delivery': id };
  const first = await receiver.handle({ rawBody: Buffer.from(raw), headers });
  const again = await receiver.handle({ rawBody: Buffer.from(raw), headers });
  const forged = await receiver.handle({
    rawBody: Buffer.from(raw),
    headers: { ...headers, 'service-signature': 't=1,v1=00' },
  });
  await receiver.processDue();
  result.receiver = { first: first.status, again: again.status, forged: forged.status, processed };
  await receiver.stop();
  fs.rmSync(dir, { recursive: true, force: true });
  process.stdout.write(`${JSON.stringify(result)}\n`);
};
