import type { FastifyRequest } from 'fastify';
import { repeatedQueryError } from './errors.ts';

/**
 * The order of a management route's answers (SPEC §10): 401 → 404 → 403 → 402 → 400 → 409.
 *
 * - 401: the route's `onRequest` hook (`authenticate`), before the body is read;
 * - 404, 403, 402: its access check, run as its `preValidation` hook: it reads the id it needs
 *   from the raw input (not yet validated: `looseString`), resolves the workspace or site and
 *   checks the role and the plan;
 * - 400: Fastify validates params, query and body against the route's schema, compiled once when
 *   the route is registered (the one validation path: no route validates by hand);
 * - then the handler, which takes what the check resolved with `of(request)`.
 *
 * A query parameter the schema expects once but that is repeated is a 400 before the check (an
 * array is not an id).
 */
export interface AccessCheck<A> {
  /** The route's `preValidation` hook. */
  preValidation: (request: FastifyRequest) => Promise<void>;
  /** What the check resolved for `request`. */
  of(request: FastifyRequest): A;
  /** The same, or undefined where the check found no id to check (the schema answers for it). */
  find(request: FastifyRequest): A | undefined;
}

/**
 * An access check from `resolve`: it throws the 404/403/402 `ApiError`s, or returns what the
 * handler needs (the site, the workspace access, …). Returning undefined means the input named no
 * resource (a missing id): nothing to check, and the schema answers 400 for it.
 */
export function accessCheck<A>(
  resolve: (request: FastifyRequest) => Promise<A | undefined> | A | undefined,
): AccessCheck<A> {
  const resolved = new WeakMap<FastifyRequest, A>();
  const find = (request: FastifyRequest) => resolved.get(request);
  return {
    preValidation: async (request) => {
      const repeated = repeatedQueryError(request);
      if (repeated) throw repeated;
      const access = await resolve(request);
      if (access !== undefined) resolved.set(request, access);
    },
    find,
    of(request) {
      const access = find(request);
      if (access === undefined) throw new Error(`no access was resolved for ${request.routeOptions.url}`);
      return access;
    },
  };
}

/** A string field of an input not validated yet (`request.query`, `.params`, `.body`), else undefined. */
export function looseString(input: unknown, field: string): string | undefined {
  if (!input || typeof input !== 'object') return undefined;
  const value = (input as Record<string, unknown>)[field];
  return typeof value === 'string' ? value : undefined;
}
