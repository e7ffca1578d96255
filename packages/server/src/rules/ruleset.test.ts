import { describe, expect, it } from 'vitest';
import type { ListsTable } from '../storage/rules-schema.ts';
import { type RuleInput, ruleVariables } from './apply.ts';
import type { RuleVariables } from './cel.ts';
import { buildRuleset, evaluateRuleset } from './ruleset.ts';
import { ruleRow } from './test-fixtures.ts';

const rule = ruleRow;
let seq = 0;

function list(
  partial: Partial<Omit<ListsTable, 'entries'>> & {
    name: string;
    kind: ListsTable['kind'];
    entries: string[];
  },
): ListsTable {
  seq++;
  return {
    id: `list_${seq}`,
    site_id: 'site_1',
    type: 'block',
    created_at: seq,
    updated_at: seq,
    ...partial,
    entries: JSON.stringify(partial.entries),
  };
}

function vars(over: Partial<RuleVariables> = {}): RuleVariables {
  return {
    event: {
      type: 'login',
      account_id: 'acct-1',
      email: 'a@mailinator.com',
      ip: '198.51.100.20',
      order_amount: 0,
    },
    features: { ip_1m: 30, account_1h: 2 },
    signals: { velocity_ip: 20 },
    identity: { linked_accounts: 0 },
    device: { device_id: 'dev_1' },
    ip: { address: '198.51.100.20', version: 4 },
    score: 20,
    ...over,
  };
}

const ruleInput: RuleInput = {
  eventType: 'login',
  event: {},
  features: {},
  signals: [],
  identity: undefined,
  deviceId: '',
  ip: '91.2.3.4',
  hardAutomation: false,
};

describe('custom rules', () => {
  it('adds a signal for a matching live rule and none for a miss', () => {
    const rs = buildRuleset(
      [
        rule({ name: 'fast_ip', expression: 'features.ip_1m > 20.0', score: 35 }),
        rule({ name: 'never', expression: 'false' }),
      ],
      [],
    );
    const out = evaluateRuleset(rs, vars(), 'login');
    expect(out.signals).toEqual([
      { rule: 'custom:fast_ip', score: 35, description: 'Custom rule "fast_ip" matched.' },
    ]);
    expect(out.forcedAction).toBeNull();
  });

  it('exposes the address country to rules as ip.country', () => {
    const rs = buildRuleset([rule({ name: 'not_home', expression: 'ip.country != "DE"', score: 15 })], []);
    const at = (country: string | null) => vars({ ip: { address: '91.2.3.4', version: 4, country } });
    expect(evaluateRuleset(rs, at('DE'), 'login').signals).toEqual([]);
    expect(evaluateRuleset(rs, at('US'), 'login').signals).toHaveLength(1);
    expect(ruleVariables({ ...ruleInput, features: { ip: { country: 'FR' } } }).ip).toEqual({
      address: '91.2.3.4',
      version: 4,
      country: 'FR',
    });
  });

  it('restricts rules to their event types', () => {
    const rs = buildRuleset(
      [rule({ name: 'checkout_only', expression: 'true', event_types: '["checkout"]' })],
      [],
    );
    expect(evaluateRuleset(rs, vars(), 'login').signals).toEqual([]);
    expect(evaluateRuleset(rs, vars(), 'checkout').signals).toHaveLength(1);
  });

  it('records shadow matches without changing signals or action', () => {
    const rs = buildRuleset(
      [rule({ name: 'shadowy', expression: 'true', mode: 'shadow', score: 50, action: 'block' })],
      [],
    );
    const out = evaluateRuleset(rs, vars(), 'login');
    expect(out.signals).toEqual([]);
    expect(out.forcedAction).toBeNull();
    expect(out.shadow).toEqual([{ rule: 'shadowy', score: 50, action: 'block' }]);
  });

  it('lets the highest priority forced action win', () => {
    const rs = buildRuleset(
      [
        rule({ name: 'low', expression: 'true', action: 'review', priority: 1 }),
        rule({ name: 'high', expression: 'true', action: 'block', priority: 5 }),
      ],
      [],
    );
    expect(evaluateRuleset(rs, vars(), 'login').forcedAction).toBe('block');
  });

  it('turns a rule that throws at run time into a zero-score signal, never an exception', () => {
    const rs = buildRuleset([rule({ name: 'missing_key', expression: 'features.nope > 1.0' })], []);
    const out = evaluateRuleset(rs, vars(), 'login');
    expect(out.signals).toHaveLength(1);
    expect(out.signals[0]).toMatchObject({ rule: 'rule_error:missing_key', score: 0 });
  });

  it('skips disabled rules and changes its version when rules change', () => {
    const r = rule({ name: 'r', expression: 'true' });
    const a = buildRuleset([r], []);
    const b = buildRuleset([{ ...r, enabled: 0 }], []);
    expect(evaluateRuleset(b, vars(), 'login').signals).toEqual([]);
    expect(a.version).not.toBe(b.version);
    expect(buildRuleset([r], []).version).toBe(a.version);
  });
});

describe('lists', () => {
  it('blocks an IP inside a CIDR on a block list', () => {
    const rs = buildRuleset([], [list({ name: 'bad_net', kind: 'ip', entries: ['198.51.100.0/24'] })]);
    const out = evaluateRuleset(rs, vars(), 'login');
    expect(out.forcedAction).toBe('block');
    expect(out.signals[0]).toMatchObject({ rule: 'blocklist:bad_net', score: 100 });
  });

  it('short-circuits to allow on an allow list, whatever rules force', () => {
    const rs = buildRuleset(
      [rule({ name: 'block_all', expression: 'true', action: 'block', priority: 100 })],
      [list({ name: 'vip', kind: 'account_id', type: 'allow', entries: ['acct-1'] })],
    );
    const out = evaluateRuleset(rs, vars(), 'login');
    expect(out.allowlisted).toBe(true);
    expect(out.forcedAction).toBe('allow');
    expect(out.signals.map((s) => s.rule)).toContain('allowlist:vip');
  });

  it('matches e-mail domains case-insensitively and exposes lists to CEL', () => {
    const rs = buildRuleset(
      [rule({ name: 'uses_list', expression: 'inList("disposable", emailDomain(event.email))', score: 25 })],
      [list({ name: 'disposable', kind: 'email_domain', entries: ['MAILINATOR.com'] })],
    );
    const out = evaluateRuleset(rs, vars(), 'signup');
    expect(out.signals.map((s) => s.rule)).toEqual(['blocklist:disposable', 'custom:uses_list']);
  });

  it('matches IPv6 ranges and ignores other address families', () => {
    const rs = buildRuleset([], [list({ name: 'v6', kind: 'ip', entries: ['2001:db8::/32'] })]);
    expect(evaluateRuleset(rs, vars({ event: { ip: '2001:db8::1' } }), 'login').forcedAction).toBe('block');
    expect(evaluateRuleset(rs, vars(), 'login').forcedAction).toBeNull();
  });
});
