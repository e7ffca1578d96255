/**
 * SPEC §6 permission matrix and plan gates, for hiding and disabling controls. The server decides;
 * both read the one matrix of the contract (`@warden/protocol/permissions`), never a copy.
 */
import {
  type Feature,
  OPERATIONS,
  type Operation,
  type Plan,
  ROLES,
  type Role,
  can as sharedCan,
  planAllows as sharedPlanAllows,
} from '@warden/protocol/permissions';

export type { Feature, Operation, Plan, Role };
export { OPERATIONS, ROLES };

/** Whether `role` may do `operation`; nobody without a role may do anything. */
export function can(role: Role | null | undefined, operation: Operation): boolean {
  return role ? sharedCan(role, operation) : false;
}

/** Plan gates; the demo workspace is exempt from all of them. */
export function planAllows(workspace: { plan: Plan; demo?: boolean }, feature: Feature): boolean {
  return sharedPlanAllows({ plan: workspace.plan, demo: workspace.demo === true }, feature);
}
