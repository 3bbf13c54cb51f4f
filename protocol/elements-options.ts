import * as z from 'zod/mini';
import type { PaymentIntentSession } from './session.ts';

/** A merchant backend route: relative to the merchant page (`/api/attach`, `api/attach`), never another origin. */
export const isRelativeUrl = (value: string) => value.length > 0 && !/^[a-z][a-z0-9+.-]*:/i.test(value) && !value.startsWith('//') && !value.startsWith('\\');

const route = z.optional(
  z.string('must be a string: a relative URL on your backend, such as "/api/cpe/attach"').check(
    z.refine(isRelativeUrl, 'must be a relative URL on your backend, such as "/api/cpe/attach", not an absolute URL or another origin'),
  ),
);

/** Spec: "middleware: relative backend routes. Keys: attach, confirm, authorise, verifyAuth, exchange". Unknown keys are typos. */
export const MiddlewareRoutes = z.strictObject(
  { attach: route, confirm: route, authorise: route, verifyAuth: route, exchange: route },
  'must be an object of relative backend routes: { attach?, confirm?, authorise?, verifyAuth?, exchange? }',
);
export type MiddlewareRoutes = z.infer<typeof MiddlewareRoutes>;

export type CreateServerIntent = () => Promise<PaymentIntentSession> | PaymentIntentSession;

/** The Elements controller options of the spec, as `createElements(options)` takes them. */
export const ElementsOptions = z.object(
  {
    pubKey: z.string('must be your public key, a string starting "pk_"').check(
      z.refine((key) => !key.startsWith('sk_'), 'is a licence key (sk_…): never put it in browser code; pass your public key (pk_…) instead'),
      z.startsWith('pk_', 'must be your public key, a string starting "pk_"'),
    ),
    createServerIntent: z.custom<CreateServerIntent>(
      (value) => typeof value === 'function',
      'must be an async function that asks your backend to create a Payment Intent and resolves to { paymentIntentId, sessionToken, opaqueKey }',
    ),
    middleware: z.optional(MiddlewareRoutes),
  },
  'must be an object: { pubKey, createServerIntent, middleware? }',
);
export type ElementsOptions = z.infer<typeof ElementsOptions>;
