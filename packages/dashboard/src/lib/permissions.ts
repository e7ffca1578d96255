/**
 * SPEC §6 permission matrix and plan gates, for hiding and disabling controls. The server decides;
 * its module (packages/server/src/workspace/permissions.ts) imports nothing, so the dashboard uses
 * the very same matrix rather than a copy.
 */
import {
  type Feature,
  OPERATIONS,
  type Operation,
  type Plan,
  ROLES,
  type Role,
  can as serverCan,
  planAllows as serverPlanAllows,
} from '../../../server/src/workspace/permissions.ts';

export type { Feature, Operation, Plan, Role };
export { OPERATIONS, ROLES };

/** Whether `role` may do `operation`; nobody without a role may do anything. */
export function can(role: Role | null | undefined, operation: Operation): boolean {
  return role ? serverCan(role, operation) : false;
}

/** Plan gates; the demo workspace is exempt from all of them. */
export function planAllows(workspace: { plan: Plan; demo?: boolean }, feature: Feature): boolean {
  return serverPlanAllows({ plan: workspace.plan, demo: workspace.demo === true }, feature);
}
