import {
  type BatchItemResult,
  BatchRequest,
  BatchResult,
  Envelope,
  VerificationRequest,
} from '@warden/protocol';
import type { FastifyRequest } from 'fastify';
import { ApiError } from '../../errors.ts';
import { scoreAndRecord } from '../../pipeline/record.ts';
import type { ScoringEngine, ScoringRequest } from '../../scoring/engine-types.ts';
import { ok } from '../envelope.ts';
import { type Surface, scoringSiteOf } from '../site-auth.ts';
import type { App } from '../types.ts';
import { compile, schemaError, validationFailed } from '../validation.ts';
import { idempotencyHeaderOf, withBatchKey } from './idempotency-header.ts';
import { ANTIBOT_PREFIX, type ScoringDeps, securityOf, surfaceHooks, userAgentOf } from './scoring-common.ts';
import { BATCH_BODY_LIMIT, behaviorLimitDetails, SINGLE_EVENT_LIMIT } from './scoring-validation.ts';

/**
 * `/events/batch` (browser) and `/verify/batch` (server): 1–50 events, each scored and recorded
 * on its own, in order. A bad item fails alone; the batch answers 201 when at least one new
 * decision was recorded, else 200. Items share idempotency scope with `/collect` and `/verify`.
 */
const checkVerificationRequest = compile(VerificationRequest);

/** Per-item checks of SPEC §8/§10: engine input ≤ 256 KiB, schema, behaviour samples. */
export function validateBatchItem(item: unknown, index: number): ScoringRequest {
  const size = Buffer.byteLength(JSON.stringify(item) ?? '', 'utf8');
  if (size > SINGLE_EVENT_LIMIT) {
    throw new ApiError(
      'payload_too_large',
      `Event ${index} is ${size} bytes; one event may be at most ${SINGLE_EVENT_LIMIT} bytes.`,
    );
  }
  const prefix = `body.events.${index}`;
  if (!checkVerificationRequest.Check(item)) {
    throw schemaError(checkVerificationRequest, item, prefix, 'every');
  }
  const request = item as ScoringRequest;
  const behaviorDetails = behaviorLimitDetails(request.behavior, prefix);
  if (behaviorDetails.length > 0) throw validationFailed(behaviorDetails);
  return request;
}

/** A malformed `Idempotency-Key` fails the whole batch (400), before the rate limit. */
async function checkIdempotencyHeader(request: FastifyRequest): Promise<void> {
  idempotencyHeaderOf(request);
}

function itemFailure(index: number, err: unknown, request: FastifyRequest): BatchItemResult {
  if (err instanceof ApiError && err.status < 500) {
    return {
      index,
      success: false,
      error: err.details?.length
        ? { code: err.code, message: err.message, details: err.details }
        : { code: err.code, message: err.message },
    };
  }
  request.log.error({ err, index }, 'batch item failed');
  return {
    index,
    success: false,
    error: { code: 'internal_error', message: 'Something went wrong on our side.' },
  };
}

export function registerBatchRoutes(
  app: App,
  ctx: ScoringDeps,
  engine: ScoringEngine,
  surface: Surface,
): void {
  const path = surface === 'browser' ? '/events/batch' : '/verify/batch';
  const route = surface === 'browser' ? 'collect' : 'verify';
  app.post(
    `${ANTIBOT_PREFIX}${path}`,
    {
      bodyLimit: BATCH_BODY_LIMIT,
      schema: {
        tags: ['scoring'],
        summary: `Score 1–50 events in one call (${surface === 'browser' ? 'browser' : 'server'}); check each item`,
        security: securityOf(surface),
        body: BatchRequest,
        response: { 200: Envelope(BatchResult), 201: Envelope(BatchResult) },
      },
      ...surfaceHooks(ctx, surface, [checkIdempotencyHeader]),
    },
    async (request, reply) => {
      const site = scoringSiteOf(request);
      const headerKey = idempotencyHeaderOf(request);
      const results: BatchItemResult[] = [];
      let created = 0;
      for (const [index, item] of request.body.events.entries()) {
        try {
          const body = withBatchKey(validateBatchItem(item, index), headerKey, index);
          const result = await scoreAndRecord(ctx, engine, {
            site,
            surface,
            route,
            body,
            observedIp: request.ip,
            observedUserAgent: userAgentOf(request),
          });
          if (!result.replayed) created++;
          results.push({ index, success: true, data: result.decision });
        } catch (err) {
          results.push(itemFailure(index, err, request));
        }
      }
      const succeeded = results.filter((r) => r.success).length;
      const data: BatchResult = { results, succeeded, failed: results.length - succeeded };
      return reply.status(created > 0 ? 201 : 200).send(ok(data));
    },
  );
}
