import type { EntityLabelKind } from '../../../server/src/entities/entity-labels.ts';
import type { EntityKind } from './entities.ts';

/** What can be labelled as a whole: the server's entity label kinds (a type import, erased). */
export type { EntityLabelKind };

const KINDS: Partial<Record<EntityKind, EntityLabelKind>> = {
  accountId: 'account',
  deviceId: 'device',
  email: 'email',
  paymentHash: 'payment',
  clusterId: 'cluster',
};

/** The entity label kind of a pivot, or null when that entity cannot be labelled as a whole. */
export function labelKindOf(kind: EntityKind): EntityLabelKind | null {
  return KINDS[kind] ?? null;
}
