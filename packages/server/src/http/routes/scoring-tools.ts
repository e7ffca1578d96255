import {
  ChallengeDescriptor,
  ChallengeRequest,
  ChallengeVerifyRequest,
  ChallengeVerifyResult,
  Envelope,
  FingerprintRegistrationRequest,
  FingerprintRegistrationResult,
} from '@warden/protocol';
import type { FastifyRequest } from 'fastify';
import { ok } from '../envelope.ts';
import { type Surface, scoringSiteOf } from '../site-auth.ts';
import type { App } from '../types.ts';
import {
  ANTIBOT_PREFIX,
  type ScoringDeps,
  type ScoringServices,
  securityOf,
  surfaceHooks,
} from './scoring-common.ts';
import { checkBehaviorLimit, SINGLE_EVENT_LIMIT } from './scoring-validation.ts';

/**
 * Fingerprint registration and proof-of-work routes, browser and server flavours. The work is
 * the fingerprint and challenge modules'; these routes add auth, validation and rate limits.
 */
declare module 'fastify' {
  interface FastifyRequest {
    challengeDifficulty?: number | undefined;
  }
}

export function registerToolRoutes(
  app: App,
  ctx: ScoringDeps,
  services: ScoringServices,
  surface: Surface,
): void {
  const base = `${ANTIBOT_PREFIX}${surface === 'browser' ? '' : '/verify'}`;
  const security = securityOf(surface);
  const who = surface === 'browser' ? 'browser' : 'server';

  app.post(
    `${base}/fingerprint`,
    {
      bodyLimit: SINGLE_EVENT_LIMIT,
      schema: {
        tags: ['fingerprint'],
        summary: `Register a device fingerprint (${who}); returns a 10-minute token bound to the site`,
        security,
        body: FingerprintRegistrationRequest,
        response: { 201: Envelope(FingerprintRegistrationResult) },
      },
      ...surfaceHooks(ctx, surface, [checkBehaviorLimit]),
    },
    async (request, reply) => {
      const registration = await services.registerFingerprint(ctx, scoringSiteOf(request).site, request.body);
      return reply.status(201).send(ok(registration));
    },
  );

  // The difficulty is checked before the rate limit (SPEC §10: validation_failed first).
  const parseDifficulty = async (request: FastifyRequest) => {
    const body = request.body as { difficulty?: unknown } | null | undefined;
    request.challengeDifficulty = services.parseDifficulty(body?.difficulty);
  };
  app.post(
    `${base}/challenge`,
    {
      bodyLimit: SINGLE_EVENT_LIMIT,
      schema: {
        tags: ['challenge'],
        summary: `Issue a proof-of-work challenge (${who})`,
        security,
        body: ChallengeRequest,
        response: { 201: Envelope(ChallengeDescriptor) },
      },
      ...surfaceHooks(ctx, surface, [parseDifficulty]),
    },
    async (request, reply) => {
      const difficulty = request.challengeDifficulty;
      const descriptor = await services.issueChallenge(ctx, scoringSiteOf(request).site, {
        ...(difficulty === undefined ? {} : { difficulty }),
        ip: surface === 'browser' ? request.ip : '',
      });
      return reply.status(201).send(ok(descriptor as typeof ChallengeDescriptor.static));
    },
  );

  app.post(
    `${base}/challenge/verify`,
    {
      bodyLimit: SINGLE_EVENT_LIMIT,
      schema: {
        tags: ['challenge'],
        summary: `Check a proof-of-work solution (${who}); answers 200 with the proof validity`,
        security,
        body: ChallengeVerifyRequest,
        response: { 200: Envelope(ChallengeVerifyResult) },
      },
      ...surfaceHooks(ctx, surface),
    },
    async (request, reply) => {
      const result = await services.verifyChallenge(ctx, scoringSiteOf(request).site, request.body);
      return reply.status(200).send(ok(result as typeof ChallengeVerifyResult.static));
    },
  );
}
