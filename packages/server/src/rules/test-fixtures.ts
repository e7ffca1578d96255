import type { RulesTable } from '../storage/rules-schema.ts';
import type { RuleVariables } from './cel.ts';

let seq = 0;

/** A stored rule row (enabled, live, score 10) with the given name and expression. */
export function ruleRow(partial: Partial<RulesTable> & { name: string; expression: string }): RulesTable {
  seq++;
  return {
    id: `rule_${seq}`,
    site_id: 'site_1',
    description: '',
    enabled: 1,
    mode: 'live',
    event_types: '[]',
    score: 10,
    action: null,
    priority: 0,
    created_at: seq,
    updated_at: seq,
    ...partial,
  };
}

/** Rule variables of a login event; `event` fields are merged over the defaults. */
export function ruleVars(event: Record<string, unknown> = {}): RuleVariables {
  return {
    event: {
      type: 'login',
      account_id: 'acct-1',
      email: 'a@example.com',
      ip: '198.51.100.20',
      user_agent: 'Mozilla/5.0',
      ...event,
    },
    features: { ip_1m: 3, account_1h: 1 },
    signals: { velocity_ip: 20 },
    identity: { linked_accounts: 0 },
    device: { device_id: 'dev_1' },
    ip: { address: '198.51.100.20', version: 4 },
    score: 20,
  };
}

/** A clock that advances by `step` on every read (virtual milliseconds). */
export function steppingClock(step: number): { now: () => number; reads: () => number } {
  let t = 0;
  let reads = 0;
  return {
    now: () => {
      reads++;
      t += step;
      return t;
    },
    reads: () => reads,
  };
}
