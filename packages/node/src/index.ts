export type {
  DecisionCreatedData,
  DecisionCreatedEvent,
  DecisionCreatedMetadata,
} from '@warden/protocol';
export {
  type AltchaFailure,
  type AltchaReplayStore,
  type AltchaVerification,
  type AltchaVerifyOptions,
  MemoryAltchaReplayStore,
  verifyAltchaPayload,
} from './altcha.ts';
export { Warden, type WardenOptions } from './client.ts';
export { WardenBatchError, WardenError } from './errors.ts';
export {
  DEFAULT_TOKEN_FIELD,
  type Enforcement,
  type MiddlewareRequest,
  type WardenMiddlewareOptions,
  type WardenRequestState,
} from './middleware/core.ts';
export {
  type ExpressLikeMiddlewareResponse,
  type ExpressNext,
  type WardenExpressOptions,
  wardenExpress,
} from './middleware/express.ts';
export { type FastifyLikeReply, type WardenFastifyOptions, wardenFastify } from './middleware/fastify.ts';
export {
  DEFAULT_MAX_BODY_BYTES,
  type ExpressLikeRequest,
  type ExpressLikeResponse,
  expressHandler,
  type FastifyLikeInstance,
  fastifyWebhookPlugin,
  nodeHttpHandler,
} from './receiver/adapters.ts';
export {
  createWebhookReceiver,
  type ReceivedWebhook,
  type ReceiverAnswer,
  type WebhookReceiver,
  type WebhookReceiverOptions,
} from './receiver/receiver.ts';
export {
  type AcceptOutcome,
  MemoryWebhookStore,
  type StoredEvent,
  type WebhookStore,
} from './receiver/store.ts';
export { type EventCheck, validateEvent } from './receiver/validate.ts';
export {
  DEFAULT_TOLERANCE_SECONDS,
  type SignatureCheck,
  signWebhookPayload,
  type VerifyOptions,
  verifyWebhookSignature,
} from './signature.ts';
export type * from './types.ts';
