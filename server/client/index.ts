/** `cpe/server`: what a merchant backend imports. */
export { CpeApiError, CpeClient, type CpeClientOptions, type RawAnswer, type RequestOptions } from './cpe-client.ts';
export { cpeMiddleware, toSession, type MiddlewareOptions, type PaymentIntentSession } from './middleware.ts';
