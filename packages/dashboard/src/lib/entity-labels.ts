import type { EntityLabelKind } from '@warden/protocol/vocabulary';
import type { EntityKind } from './entities.ts';

/** What can be labelled as a whole: the entity label kinds of the management API (protocol). */
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

/** How an entity label kind reads in a sentence ("via card"). */
export const LABEL_KIND_NAMES: Record<EntityLabelKind, string> = {
  account: 'account',
  device: 'device',
  email: 'e-mail',
  payment: 'card',
  cluster: 'cluster',
};
