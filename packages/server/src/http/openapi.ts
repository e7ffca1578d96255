import { IDEMPOTENCY_KEY_PATTERN } from '@warden/protocol';
import type { Config } from '../config.ts';
import { ERROR_CODES } from '../errors.ts';

/**
 * The OpenAPI 3.1 document at /api/openapi.json, as tools expect it (`npm run lint:openapi` runs
 * Redocly's recommended rules on it with zero errors). @fastify/swagger builds it from the route
 * schemas; `finishOpenapiDocument` then
 * - rewrites tuple schemas from the draft-07 form TypeBox emits (`items: [...]`,
 *   `additionalItems`) to JSON Schema 2020-12 (`prefixItems`, `items: false`), the form 3.1 uses;
 * - gives every operation an `operationId` (named below, or derived from method and path), a
 *   `4XX` answer in the error envelope when it names none, and a `security` requirement: public
 *   operations (login, SAML) state `[]`;
 * - documents the `Idempotency-Key` request header and the `RateLimit-*` answer headers of the
 *   scoring routes; lists the tags with descriptions.
 */
type Json = Record<string, unknown>;

export const TAGS: Record<string, string> = {
  scoring: 'Score events: browser routes (site key + allowed Origin) and server routes (site + secret key).',
  fingerprint: 'Register device fingerprints; answers a 10-minute token.',
  challenge: 'Proof-of-work challenges (ALTCHA v1 and v2 forms) and their verification.',
  auth: 'Sign in and out; the signed-in user.',
  workspaces: 'Workspaces and your role in each.',
  members: 'Members of a workspace and their roles.',
  sites: 'Sites, their allowed origins, settings and keys.',
  rules: 'Custom CEL rules, their statistics and backtests.',
  lists: 'Allow and block lists used by rules.',
  decisions: 'Recorded decisions, labels, identity clusters and statistics.',
  webhooks: 'The signed decision.created webhook: configuration, test, redelivery.',
  sso: 'SAML 2.0 single sign-on per workspace.',
};

/** Operation ids of today's routes, by `METHOD path`; any other route gets a derived one. */
const OPERATION_IDS: Record<string, string> = {
  'POST /api/auth/login': 'login',
  'POST /api/auth/logout': 'logout',
  'GET /api/auth/me': 'getMe',
  'GET /api/workspaces': 'listWorkspaces',
  'POST /api/workspaces': 'createWorkspace',
  'GET /api/sites': 'listSites',
  'POST /api/sites': 'createSite',
  'GET /api/sites/{id}': 'getSite',
  'PATCH /api/sites/{id}': 'updateSite',
  'POST /api/sites/{id}/rotate-keys': 'rotateSiteKeys',
  'GET /api/workspaces/{id}/members': 'listMembers',
  'POST /api/workspaces/{id}/invitations': 'inviteMember',
  'GET /api/workspaces/{id}/invitations': 'listInvitations',
  'DELETE /api/workspaces/{id}/invitations/{invitationId}': 'revokeInvitation',
  'POST /api/invitations/preview': 'previewInvitation',
  'POST /api/invitations/accept': 'acceptInvitation',
  'PATCH /api/workspaces/{id}/members/{userId}': 'updateMember',
  'DELETE /api/workspaces/{id}/members/{userId}': 'removeMember',
  'GET /api/rules': 'listRules',
  'POST /api/rules': 'createRule',
  'GET /api/rules/{id}': 'getRule',
  'PATCH /api/rules/{id}': 'updateRule',
  'DELETE /api/rules/{id}': 'deleteRule',
  'POST /api/rules/backtest': 'backtestRules',
  'GET /api/rules/{id}/stats': 'getRuleStats',
  'GET /api/lists': 'listLists',
  'POST /api/lists': 'createList',
  'GET /api/lists/{id}': 'getList',
  'PATCH /api/lists/{id}': 'updateList',
  'DELETE /api/lists/{id}': 'deleteList',
  'POST /api/antibot/collect': 'collectEvent',
  'POST /api/antibot/events/batch': 'collectEventBatch',
  'POST /api/antibot/fingerprint': 'registerFingerprint',
  'POST /api/antibot/challenge': 'issueChallenge',
  'POST /api/antibot/challenge/verify': 'verifyChallenge',
  'POST /api/antibot/verify': 'verifyEvent',
  'POST /api/antibot/verify/batch': 'verifyEventBatch',
  'POST /api/antibot/verify/fingerprint': 'serverRegisterFingerprint',
  'POST /api/antibot/verify/challenge': 'serverIssueChallenge',
  'POST /api/antibot/verify/challenge/verify': 'serverVerifyChallenge',
  'GET /api/decisions': 'listDecisions',
  'GET /api/decisions/{id}': 'getDecision',
  'POST /api/decisions/{id}/label': 'labelDecision',
  'GET /api/clusters/{id}': 'getCluster',
  'GET /api/stats': 'getStats',
  'GET /api/webhooks': 'getWebhook',
  'PUT /api/webhooks': 'saveWebhook',
  'POST /api/webhooks/test': 'testWebhook',
  'POST /api/webhooks/deliveries/{id}/redeliver': 'redeliverWebhook',
  'GET /api/workspaces/{id}/sso': 'getSsoConfig',
  'POST /api/workspaces/{id}/sso/metadata/refresh': 'refreshSsoMetadata',
  'PUT /api/workspaces/{id}/sso': 'saveSsoConfig',
  'GET /api/sso/saml/{workspaceId}/metadata': 'getSamlMetadata',
  'GET /api/sso/saml/{workspaceId}/login': 'startSamlLogin',
  'POST /api/sso/saml/{workspaceId}/acs': 'samlAssertionConsumer',
  'GET /api/antibot/altcha/challenge': 'issueAltchaChallenge',
  'GET /api/antibot/altcha/v2/challenge': 'issueAltchaV2Challenge',
};

/** Operations anyone may call: they state `security: []` (no credentials). */
const PUBLIC_PATHS = [/^\/api\/auth\/login$/, /^\/api\/sso\/saml\//, /^\/api\/invitations\/preview$/];

/** Scoring routes that take `Idempotency-Key` (decisions are recorded). */
const IDEMPOTENT_SCORING = /^\/api\/antibot\/(collect|verify|events\/batch|verify\/batch)$/;
const RATE_LIMITED = /^\/api\/antibot\//;

const METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'];

/** `POST /api/foo-bar/{id}/baz` → `postFooBarBaz` (the derived id of a route not named above). */
export function derivedOperationId(method: string, path: string): string {
  const words = path
    .replace(/^\/api\//, '')
    .split('/')
    .filter((segment) => segment !== '' && !segment.startsWith('{'))
    .flatMap((segment) => segment.split(/[^A-Za-z0-9]+/))
    .filter(Boolean);
  return [method.toLowerCase(), ...words.map((w) => w[0]!.toUpperCase() + w.slice(1))].join('');
}

/** Draft-07 tuples (`items: [...]`, `additionalItems`) → 2020-12 (`prefixItems`, `items`), at any depth. */
export function rewriteTuples(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(rewriteTuples);
  if (node === null || typeof node !== 'object') return node;
  const out: Json = {};
  for (const [key, value] of Object.entries(node)) out[key] = rewriteTuples(value);
  if (Array.isArray(out.items)) {
    out.prefixItems = out.items;
    const extra = out.additionalItems;
    delete out.additionalItems;
    if (extra === undefined || extra === true) delete out.items;
    else out.items = extra;
  }
  return out;
}

const ERROR_ENVELOPE: Json = {
  type: 'object',
  required: ['success', 'error', 'timestamp'],
  properties: {
    success: { type: 'boolean', enum: [false] },
    error: {
      type: 'object',
      required: ['code', 'message'],
      properties: {
        code: { type: 'string', enum: Object.keys(ERROR_CODES) },
        message: { type: 'string' },
        details: {
          type: 'array',
          items: {
            type: 'object',
            required: ['path', 'message'],
            properties: { path: { type: 'string' }, message: { type: 'string' } },
          },
        },
      },
    },
    timestamp: { type: 'string', format: 'date-time' },
  },
};

const integerHeader = (description: string) => ({ description, schema: { type: 'integer', minimum: 0 } });
const RATE_LIMIT_HEADERS: Json = {
  'RateLimit-Limit': integerHeader('Requests allowed per window.'),
  'RateLimit-Remaining': integerHeader('Requests left in the window after this one.'),
  'RateLimit-Reset': integerHeader('Seconds until the quota is whole again.'),
  'RateLimit-Policy': { description: '`<limit>;w=<window seconds>`.', schema: { type: 'string' } },
};

const IDEMPOTENCY_PARAMETER: Json = {
  name: 'Idempotency-Key',
  in: 'header',
  required: false,
  description:
    'Same key as the body field `idempotency_key` (both given and different → 400). On batches, items without their own key get `<key>:<index>`.',
  schema: { type: 'string', pattern: IDEMPOTENCY_KEY_PATTERN },
};

function finishOperation(method: string, path: string, operation: Json): void {
  operation.operationId ??=
    OPERATION_IDS[`${method.toUpperCase()} ${path}`] ?? derivedOperationId(method, path);
  if (operation.security === undefined && PUBLIC_PATHS.some((p) => p.test(path))) operation.security = [];
  operation.responses ??= {};
  const responses = operation.responses as Json;
  const statuses = Object.keys(responses);
  if (!statuses.some((s) => s.startsWith('4'))) {
    responses['4XX'] = {
      description:
        'An error in the envelope `{success: false, error: {code, message, details?}, timestamp}`.',
      content: { 'application/json': { schema: ERROR_ENVELOPE } },
    };
  }
  if (RATE_LIMITED.test(path)) {
    for (const status of Object.keys(responses)) {
      const response = responses[status] as Json;
      response.headers = { ...RATE_LIMIT_HEADERS, ...(response.headers as Json | undefined) };
    }
  }
  if (IDEMPOTENT_SCORING.test(path)) {
    operation.parameters = [
      ...((operation.parameters as unknown[] | undefined) ?? []),
      IDEMPOTENCY_PARAMETER,
    ];
  }
}

export function finishOpenapiDocument(document: Json): Json {
  const doc = rewriteTuples(document) as Json;
  const used = new Set<string>();
  for (const [path, item] of Object.entries((doc.paths ?? {}) as Record<string, Json>)) {
    for (const method of METHODS) {
      const operation = item[method] as Json | undefined;
      if (!operation) continue;
      finishOperation(method, path, operation);
      for (const tag of (operation.tags as string[] | undefined) ?? []) used.add(tag);
    }
  }
  doc.tags = [...used].sort().map((name) => (TAGS[name] ? { name, description: TAGS[name] } : { name }));
  return doc;
}

/** The `openapi` option of @fastify/swagger. */
export function openapiOptions(config: Config) {
  return {
    openapi: '3.1.0' as const,
    info: {
      title: 'Warden API',
      version: '1.0.0',
      description: 'Self-hosted bot and fraud scoring. Every success is `{success, data, timestamp}`.',
      license: { name: 'MIT', identifier: 'MIT' },
    },
    servers: [{ url: config.publicUrl, description: 'This Warden server (WARDEN_PUBLIC_URL)' }],
    components: {
      securitySchemes: {
        bearer: { type: 'http' as const, scheme: 'bearer', bearerFormat: 'JWT' },
        siteKey: { type: 'apiKey' as const, in: 'header', name: 'X-Site-Key' },
        secretKey: { type: 'apiKey' as const, in: 'header', name: 'X-Secret-Key' },
      },
    },
  };
}
