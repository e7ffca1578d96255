import { describe, expect, it } from 'vitest';
import * as server from '../../../server/src/workspace/permissions.ts';
import { can, OPERATIONS, planAllows, ROLES } from './permissions.ts';

describe('dashboard permission matrix', () => {
  it('has exactly the server operations and roles', () => {
    expect([...OPERATIONS].sort()).toEqual([...server.OPERATIONS].sort());
    expect([...ROLES].sort()).toEqual([...server.ROLES].sort());
  });

  it('allows exactly what the server allows, for every role and operation', () => {
    for (const role of server.ROLES) {
      for (const op of server.OPERATIONS) expect(can(role, op), `${role} ${op}`).toBe(server.can(role, op));
    }
  });

  it('allows nothing without a role', () => {
    for (const op of OPERATIONS) expect(can(null, op)).toBe(false);
  });

  it('has the same plan gates', () => {
    for (const plan of ['free', 'pro', 'enterprise'] as const) {
      for (const demo of [false, true]) {
        for (const feature of ['identity', 'webhooks', 'sso'] as const) {
          expect(planAllows({ plan, demo }, feature)).toBe(server.planAllows({ plan, demo }, feature));
        }
      }
    }
  });
});
