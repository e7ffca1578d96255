import { ManagementEnvelope } from '@warden/protocol/management';

/**
 * What the management routes add to the contract's schemas (`@warden/protocol/management`): the
 * success envelope they document and their OpenAPI security requirement.
 */

/** The success envelope of interface 2.1 around `data`. */
export const Envelope = ManagementEnvelope;

export const bearer = [{ bearer: [] }];
