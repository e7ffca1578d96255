import { IDEMPOTENCY_KEY_PATTERN } from '@warden/protocol';
import type { FastifyRequest } from 'fastify';
import type { ScoringRequest } from '../../scoring/engine-types.ts';
import { validationFailed } from '../validation.ts';

/**
 * The `Idempotency-Key` request header (SPEC §11), as Stripe clients send it: the same key as the
 * body's `idempotency_key`, with the same semantics (SPEC §3).
 * - `/collect`, `/verify`: the header stands for the body field. Both given and different → 400.
 * - `/events/batch`, `/verify/batch`: an item without its own key gets `<header>:<index>`, so that
 *   the whole batch sent again answers with the same decisions.
 */
export const IDEMPOTENCY_HEADER = 'idempotency-key';
const HEADER_PATH = 'headers.idempotency-key';
const KEY = new RegExp(IDEMPOTENCY_KEY_PATTERN);

/** The header's key, when sent; 400 `validation_failed` for a malformed or repeated header. */
export function idempotencyHeaderOf(request: FastifyRequest): string | undefined {
  const value = request.headers[IDEMPOTENCY_HEADER];
  if (value === undefined) return undefined;
  if (typeof value !== 'string') {
    throw validationFailed([{ path: HEADER_PATH, message: 'must be sent once' }]);
  }
  if (!KEY.test(value)) {
    throw validationFailed([
      { path: HEADER_PATH, message: 'must be 1 to 128 characters of letters, digits, _ . : -' },
    ]);
  }
  return value;
}

/**
 * preHandler of `/collect` and `/verify`: the header's key becomes the body's `idempotency_key`
 * (the body's canonical hash then includes it, exactly as if the body had carried it).
 */
export async function applyIdempotencyHeader(request: FastifyRequest): Promise<void> {
  const key = idempotencyHeaderOf(request);
  if (key === undefined) return;
  const body = request.body as ScoringRequest;
  if (body.idempotency_key === key) return;
  if (body.idempotency_key !== undefined) {
    throw validationFailed([
      {
        path: HEADER_PATH,
        message: 'differs from body.idempotency_key; send the key once, or the same key in both',
      },
    ]);
  }
  request.body = { ...body, idempotency_key: key };
}

/** A batch item's body under the batch's header key: its own key wins, else `<key>:<index>`. */
export function withBatchKey(
  item: ScoringRequest,
  headerKey: string | undefined,
  index: number,
): ScoringRequest {
  if (headerKey === undefined || item.idempotency_key !== undefined) return item;
  return { ...item, idempotency_key: `${headerKey}:${index}` };
}
