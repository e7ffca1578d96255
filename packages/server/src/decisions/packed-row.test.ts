import zlib from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { PACKED_DICTIONARY_V3, PACKED_DICTIONARY_V4 } from './packed-dictionary.ts';
import { PACKED_DICTIONARY, packDecision, sealedDecision, unpackDecision } from './packed-row.ts';
import { signalsColumn } from './signals-column.ts';

const identity = {
  cluster_id: 'cl_1',
  linked_accounts: 2,
  shared_devices: 0,
  shared_ips: 1,
  shared_payments: 0,
};
const behavior = { present: true, interactions: 12, mean_turn: 0.24273528096507507, key_floor: null };
const features = {
  event_type: 'login',
  device_id: 'dev_1',
  user_agent: 'Mozilla/5.0 (X11; Linux x86_64) Firefox/140.0',
  surface: 'server',
  ip: { asn: 45899, org: 'VNPT Corp', country: 'VN', hosting: false },
  behavior,
  subnet: '123.23.21.0/24',
  identity,
  custom_rules: { matched: [], shadow: [{ rule: 'fast_login', score: 10 }] },
  hardware_profile: 'hw_61a44a6df9c9ecd3',
};
const evidence = { device: { id: 'dev_1', source: 'fingerprint' }, behavior, environment: { cdp: false } };
const signals = [{ rule: 'datacenter_ip', score: 20, description: 'A hosting network.' }];
const columns = {
  id: '01a2268d-9f2a-72f5-9cac-2df0cfc8b060',
  classification: 'suspicious',
  risk_score: 45,
  risk_level: 'medium',
  action: 'review',
  device_id: 'dev_1',
  signals: JSON.stringify(signals),
  decision_ms: 0.912,
  created_at: Date.parse('2026-11-29T09:05:45.258Z'),
  ruleset_version: 'rs_13dc432a2828',
  account_id: 'acct_7',
  email: 'ann@example.com',
  ip_address: '123.23.21.9',
  user_agent: 'Mozilla/5.0 (X11; Linux x86_64) Firefox/140.0',
  payment_hash: null,
  promo_code: 'WELCOME10',
  cluster_id: 'cl_1',
};
const answer: Record<string, unknown> = {
  classification: 'suspicious',
  risk_score: 45,
  risk_level: 'medium',
  action: 'review',
  request_id: columns.id,
  device_id: 'dev_1',
  signals,
  identity,
  decision_ms: 0.912,
  timestamp: '2026-11-29T09:05:45.258Z',
  ruleset_version: 'rs_13dc432a2828',
  idempotent_replay: false,
};
const ruleInput = {
  v: 1,
  event: {
    type: 'login',
    account_id: 'acct_7',
    email: 'ann@example.com',
    ip: '123.23.21.9',
    user_agent: 'Mozilla/5.0 (X11; Linux x86_64) Firefox/140.0',
    promo_code: 'WELCOME10',
    request_url: 'https://shop.example/login',
  },
  identity,
  device_id: 'dev_1',
  ip: '123.23.21.9',
  default_signals: 1,
};
const recorded = { features, evidence, ruleInput, answer };
const json = (value: unknown) => JSON.stringify(value);

/** Packed as the request thread packs, sealed as the writer seals: the stored row. */
function stored(parts: Parameters<typeof packDecision>[1], row = columns) {
  return sealedDecision({ ...row, workspace_id: 'ws_1', ...packDecision(row, parts) });
}

function roundTrip(parts: Parameters<typeof packDecision>[1]) {
  const row = stored(parts);
  return { stored: row, read: unpackDecision(row) };
}

/** A context-only decision as format 2 stored it (recorded by the server before format 3). */
const FORMAT_2_ROW = {
  id: '01a227eb-eb3d-7c60-9aed-ed7d9421c179',
  classification: 'suspicious',
  risk_score: 45,
  risk_level: 'medium',
  action: 'review',
  device_id: 'dev_48a5506ed1aa9ab15e455426',
  signals: '[{"rule":"webdriver_absent","score":30},{"rule":"timezone_country_mismatch","score":15}]',
  decision_ms: 5477.893,
  created_at: 1795966102333,
  ruleset_version: 'rs_a4ce1e353189',
  account_id: 'soak_acct_3',
  email: 'soak.user.3@example.com',
  ip_address: '11.0.0.3',
  user_agent: '',
  payment_hash: null,
  promo_code: null,
  cluster_id: 'cl_b7537642d57e79d9e094',
  features:
    '{"ip":{"asn":749,"org":"United States Department of Defense (DoD)","country":"US","hosting":false},"subnet":"11.0.0.0/24"}',
  evidence: '',
  response: '',
  rule_input: null,
  packed: Buffer.from(
    '02A3F528C1105D92313A4A30BA2483AE8303A34B324697648C2EC9A0C2928C24D0367C080BB4E738251EB453BA98CEAB35CC8D2D885AB0613CDA4B1EE6BD648C8047599E80BF976C38F27AC9C634EE25572B25E794827625C3DA9C90DD2DF0F087F804BCA907EA7B14A1CC02142E2C2820BD7BD297810CC38E362D0398B2EEBB11C89D903C0CEA31D1E91C34251D2A2F78484B46E9DF152513D1C90300',
    'hex',
  ),
  packed_evidence: Buffer.from('021B344B78C81B13C3B984C73439396574090F31234BE6C616A48D2C0100', 'hex'),
};

/** The decision `recorded` as format 3 stored it (sealed with format 3's 29 KB dictionary, before format 4). */
const FORMAT_3_ROW = {
  ...columns,
  signals: '[{"rule":"datacenter_ip","score":20}]',
  user_agent: '',
  features:
    '{"ip":{"asn":45899,"org":"VNPT Corp","country":"VN"},"custom_rules":{"matched":[],"shadow":[{"rule":"fast_login","score":10}]}}',
  evidence: '',
  response: '',
  rule_input: null,
  packed: Buffer.from(
    '03C3379E809A11495829AB89B12016CB780419F503D1C722191A619C4464646E6C6A64616069666A606E6A608ED12C46A9C88C8CF540C8105E979150F019112CF80C71147CC9A5C525F9B9F1A02B8F8AE1851EE6110566868926268966296996C996A9C929C694563ED8AB10E4AA86941A85C46A82FCD0C25A4D105AE4E1887E5B257A014CECB28D7CB4B21700',
    'hex',
  ),
  packed_evidence: Buffer.from('032336C9A06AC3083584076A6B01', 'hex'),
};

describe('packed decision rows', () => {
  it('reads back the very JSON texts the decision was recorded with', () => {
    const before = json(recorded);
    const { stored, read } = roundTrip(recorded);
    expect(read).toEqual({
      features: json(features),
      evidence: json(evidence),
      response: json(answer),
      rule_input: json(ruleInput),
      signals: json(signals),
      user_agent: columns.user_agent,
    });
    // The engine's objects (shared by the features, the answer and the evidence) are left as they were.
    expect(json(recorded)).toBe(before);
    // What SQL reads stays in the features column (of the IP's network its ASN, name and country;
    // an IPv4 address's /24 is matched on the address); the rest is packed.
    expect(stored.features).toBe(
      json({ ip: { asn: 45899, org: 'VNPT Corp', country: 'VN' }, custom_rules: features.custom_rules }),
    );
    expect(stored.evidence).toBe('');
    expect(stored.response).toBe('');
    expect(stored.rule_input).toBeNull();
  });

  it('keeps an answer the columns do not rebuild whole (a challenge, an identity of its own)', () => {
    const challenge = { type: 'pow', difficulty: 18, salt: 'abc' };
    const own = { ...answer, identity: { ...identity, linked_accounts: 9 }, challenge };
    expect(roundTrip({ features, evidence, ruleInput: null, answer: own }).read.response).toBe(
      JSON.stringify(own),
    );
    const { identity: _none, ...withoutIdentity } = answer;
    const read = roundTrip({ features, evidence: {}, ruleInput: null, answer: withoutIdentity });
    expect(read.read).toMatchObject({
      response: JSON.stringify(withoutIdentity),
      evidence: '{}',
      rule_input: null,
    });
    expect(read.stored.packed_evidence).toBeNull();
    const reordered = { idempotent_replay: false, ...answer };
    expect(roundTrip({ features, evidence, ruleInput, answer: reordered }).read.response).toBe(
      JSON.stringify(reordered),
    );
  });

  it('reads a row whose evidence the retention removed as evidence {}, the rest intact', () => {
    const { stored } = roundTrip(recorded);
    const read = unpackDecision({ ...columns, ...stored, packed_evidence: null });
    expect(read.evidence).toBe('{}');
    expect(read.features).toBe(JSON.stringify(features));
  });

  it('stores no column twice: signals without descriptions, user agent and workspace once', () => {
    const { stored } = roundTrip(recorded);
    expect(stored.packed?.[0]).toBe(4);
    expect(JSON.parse(stored.signals)).toEqual([{ rule: 'datacenter_ip', score: 20 }]);
    expect(stored.user_agent).toBe('');
    expect(stored.workspace_id).toBe('');
    // The body refers to the columns it repeated: changing a column changes what it reads back.
    const read = unpackDecision({ ...stored, account_id: 'acct_other', cluster_id: 'cl_other' });
    expect(JSON.parse(read.rule_input ?? 'null').event.account_id).toBe('acct_other');
    expect(JSON.parse(read.features).identity.cluster_id).toBe('cl_other');
    expect(JSON.parse(read.response).identity.cluster_id).toBe('cl_other');
  });

  it('keeps a column whole where the body does not rebuild it exactly', () => {
    const own = [{ score: 5, rule: 'odd_order', description: 'Keys in another order.' }];
    const row = { ...columns, signals: json(own), user_agent: 'another agent' };
    const sealed = stored({ ...recorded, answer: { ...answer, signals: own } }, row);
    expect(sealed.signals).toBe(json(own));
    expect(sealed.user_agent).toBe('another agent');
    expect(unpackDecision(sealed)).toMatchObject({ signals: json(own), user_agent: 'another agent' });
    expect(JSON.parse(unpackDecision(sealed).response).signals).toEqual(own);
  });

  it('keeps the /64 of an IPv6 address in the features column (SQL matches a network on it)', () => {
    const v6 = { ...features, ip: { hosting: true, asn: 64500, country: null }, subnet: '2001:db8:1:2::/64' };
    const row = { ...columns, ip_address: '2001:db8:1:2::7' };
    const sealed = stored({ ...recorded, features: v6 }, row);
    expect(JSON.parse(sealed.features)).toEqual({
      ip: { asn: 64500, country: null },
      subnet: '2001:db8:1:2::/64',
      custom_rules: features.custom_rules,
    });
    expect(unpackDecision(sealed).features).toBe(json(v6));
    const noIntel = stored({ ...recorded, features: { ...v6, ip: null } }, row);
    expect(JSON.parse(noIntel.features).ip).toBeNull();
    expect(unpackDecision(noIntel).features).toBe(json({ ...v6, ip: null }));
  });

  it('reads a row of format 2 (facets whole in the features column, its own dictionary)', () => {
    const read = unpackDecision(FORMAT_2_ROW);
    const readFeatures = JSON.parse(read.features);
    expect(readFeatures.ip).toEqual({
      asn: 749,
      org: 'United States Department of Defense (DoD)',
      country: 'US',
      hosting: false,
    });
    expect(readFeatures.subnet).toBe('11.0.0.0/24');
    expect(readFeatures.device_id).toBe(FORMAT_2_ROW.device_id);
    expect(JSON.parse(read.rule_input ?? 'null').event.account_id).toBe('soak_acct_3');
    expect(JSON.parse(read.evidence).device.id).toBe(FORMAT_2_ROW.device_id);
    expect(JSON.parse(read.response)).toMatchObject({
      request_id: FORMAT_2_ROW.id,
      risk_score: 45,
      signals: [
        { rule: 'webdriver_absent', score: 30 },
        { rule: 'timezone_country_mismatch', score: 15 },
      ],
    });
    expect(JSON.parse(read.signals)[1].description).toBe(
      'Time zone Europe/Berlin does not fit an address in US.',
    );
  });

  it('seals with a dictionary deflate uses whole (at most its 32 KiB window)', () => {
    expect(Buffer.byteLength(PACKED_DICTIONARY)).toBeLessThanOrEqual(32 * 1024);
  });

  it('seals in format 4: body and evidence each deflated with its ~12.6 KB dictionary, not the 29 KB of format 3', () => {
    // Deflate hashes its whole dictionary at the start of every stream (twice a row): the
    // dictionary's size was most of the writer's sealing (docs/performance.md, Round 3).
    expect(PACKED_DICTIONARY).toBe(PACKED_DICTIONARY_V4);
    expect(Buffer.byteLength(PACKED_DICTIONARY)).toBeLessThanOrEqual(13 * 1024);
    expect(Buffer.byteLength(PACKED_DICTIONARY) * 2).toBeLessThan(Buffer.byteLength(PACKED_DICTIONARY_V3));
    const { stored } = roundTrip(recorded);
    expect(stored.packed?.[0]).toBe(4);
    expect(stored.packed_evidence?.[0]).toBe(4);
    const dictionary = Buffer.from(PACKED_DICTIONARY_V4);
    const inflate = (bytes: Uint8Array) => zlib.inflateRawSync(bytes.subarray(1), { dictionary }).toString();
    expect(JSON.parse(inflate(stored.packed as Uint8Array)).f.event_type).toBe('login');
    expect(JSON.parse(inflate(stored.packed_evidence as Uint8Array))).toMatchObject({
      environment: { cdp: false },
    });
  });

  it('reads a row of format 3 (its own dictionary) as the same decision stored in format 4 reads', () => {
    const { stored, read } = roundTrip(recorded);
    expect(Buffer.from(stored.packed as Uint8Array).equals(FORMAT_3_ROW.packed)).toBe(false);
    expect(unpackDecision(FORMAT_3_ROW)).toEqual(read);
    expect(unpackDecision({ ...FORMAT_3_ROW, packed_evidence: null }).evidence).toBe('{}');
  });

  it('reads a row recorded before packing as it is', () => {
    const legacy = {
      ...columns,
      features: '{"a":1}',
      evidence: '{"b":2}',
      response: '{"c":3}',
      rule_input: null,
      packed: null,
      packed_evidence: null,
    };
    expect(unpackDecision(legacy)).toEqual({
      features: '{"a":1}',
      evidence: '{"b":2}',
      response: '{"c":3}',
      rule_input: null,
      signals: columns.signals,
      user_agent: columns.user_agent,
    });
  });

  it('stores a browser decision in a fraction of its JSON', () => {
    const { stored } = roundTrip(recorded);
    const whole = json(features).length + json(evidence).length + json(answer).length;
    const packed =
      stored.features.length + (stored.packed?.length ?? 0) + (stored.packed_evidence?.length ?? 0);
    expect(packed).toBeLessThan(whole / 2);
  });

  it('stores the very same bytes with the signals built once (signalsColumn) as from their JSON', () => {
    const challenge = { type: 'pow', difficulty: 18, salt: 'abc' };
    const { identity: _none, ...withoutIdentity } = answer;
    const two = [...signals, { rule: 'new_device', score: 10, description: 'First seen "today" \u2028.' }];
    const cases: Array<{
      signals: unknown[];
      answer: Record<string, unknown>;
      row?: Partial<typeof columns>;
    }> = [
      { signals, answer },
      { signals: two, answer: { ...answer, signals: two } },
      { signals, answer: { ...answer, challenge } },
      { signals, answer: { ...answer, identity: { ...identity, linked_accounts: 9 }, challenge } },
      { signals, answer: withoutIdentity },
      { signals, answer: { idempotent_replay: false, ...answer } },
      { signals, answer: { ...answer, risk_score: 46 } },
      { signals, answer: { ...answer, risk_score: '45' } },
      { signals, answer: { ...answer, timestamp: '2026-11-29T09:05:45.259Z' } },
      { signals, answer: { ...answer, device_id: null }, row: { device_id: '' } },
      { signals, answer: { ...answer, signals: [...signals] } },
      { signals, answer: { ...answer, extra: 1 } },
      { signals, answer: { ...answer, identity: undefined } },
      { signals: [], answer: { ...answer, signals: [] } },
      { signals: [{ score: 5, rule: 'odd', description: 'd' }], answer },
      { signals: [{ rule: 'extra', score: 5, description: 'd', more: 1 }], answer },
      { signals: [{ rule: 'undefined', score: 5, description: 'd', more: undefined }], answer },
      { signals: [{ rule: 'nan', score: Number.NaN, description: 'd' }], answer },
      { signals: [{ rule: 'negative zero', score: -0, description: 'd' }], answer },
      { signals: [{ rule: 'no description', score: 5 }], answer },
      { signals: [{ rule: 'lone \ud800 surrogate', score: 1.5e-7, description: '\udfff' }], answer },
    ];
    for (const c of cases) {
      const built = signalsColumn(c.signals);
      expect(built.json).toBe(json(c.signals));
      const row = { ...columns, ...c.row };
      const parts = { ...recorded, answer: { ...c.answer, signals: c.answer.signals ?? c.signals } };
      if (c.answer.signals === answer.signals && c.signals !== signals) parts.answer.signals = c.signals;
      const fromJson = stored(parts, { ...row, signals: built.json });
      const once = stored({ ...parts, signals: built }, { ...row, signals: built.json });
      expect(once).toStrictEqual(fromJson);
      expect(unpackDecision(once)).toEqual(unpackDecision(fromJson));
    }
  });
});
