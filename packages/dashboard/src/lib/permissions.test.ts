import * as shared from '@warden/protocol/permissions';
import { describe, expect, it } from 'vitest';
import { can, OPERATIONS, planAllows, ROLES } from './permissions.ts';

describe('dashboard permission matrix', () => {
  it('has exactly the operations and roles of the contract', () => {
    expect([...OPERATIONS].sort()).toEqual([...shared.OPERATIONS].sort());
    expect([...ROLES].sort()).toEqual([...shared.ROLES].sort());
  });

  it('allows exactly what the contract allows, for every role and operation', () => {
    for (const role of shared.ROLES) {
      for (const op of shared.OPERATIONS) expect(can(role, op), `${role} ${op}`).toBe(shared.can(role, op));
    }
  });

  it('allows nothing without a role', () => {
    for (const op of OPERATIONS) expect(can(null, op)).toBe(false);
  });

  it('has the same plan gates', () => {
    for (const plan of ['free', 'pro', 'enterprise'] as const) {
      for (const demo of [false, true]) {
        for (const feature of ['identity', 'webhooks', 'sso'] as const) {
          expect(planAllows({ plan, demo }, feature)).toBe(shared.planAllows({ plan, demo }, feature));
        }
      }
    }
  });
});
