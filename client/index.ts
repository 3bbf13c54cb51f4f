/**
 * `cpe/server`: what a merchant backend imports. Compiled to plain JavaScript with its declarations
 * (dist/server/), with no dependency at run time: Node's own modules only.
 */
export { CpeApiError, CpeClient, type ApiErrorObject, type CpeClientOptions, type RawAnswer, type RequestOptions } from './cpe-client.ts';
export { CpeMessagingClient, type CpeMessagingClientOptions } from './messaging-client.ts';
export { cpeRoutes, toSession, type PaymentIntentSession, type RouteAnswer, type RouteName, type RouteOptions } from './cpe-routes.ts';
export { cpeMiddleware, type CpeRouter, type MiddlewareOptions } from './middleware.ts';
export { cpeNodeHandler, type NodeHandlerOptions } from './node-handler.ts';
export { verifyWebhook, WebhookVerificationError, type CpeEvent, type HeaderSource, type VerifyOptions, type WebhookVerificationCode } from './webhook-verify.ts';
export { cpeWebhookHandler, memoryDedupeStore, type WebhookDedupeStore, type WebhookHandlerOptions, type WebhookHandlers } from './webhook-handler.ts';
