import type { Middleware } from 'koa';
import { PUBLIC_KEY_HEADER, SESSION_TOKEN_HEADER } from '../../protocol/runtime/headers.ts';
import { noSuch, unauthenticated } from '../http/api-error.ts';
import type { AppState } from '../http/app-state.ts';
import { requestRef } from '../http/durable-writes.ts';
import type { Ctx } from '../http/operation.ts';
import { bearer } from '../identity/secrets.ts';
import type { Merchants } from './merchants.ts';
import type { PaymentsService } from './payments-service.ts';


/** Backend routes: `Authorization: Bearer <licence key>`. A public key never authorises them. */
export function licenceKeyAuth(merchants: Merchants): Middleware<AppState> {
  return async (ctx, next) => {
    const key = bearer(ctx.get('authorization'));
    if (!key) throw unauthenticated('Send your licence key as `Authorization: Bearer <licence key>`.');
    const merchant = await merchants.byKey(key, 'licence');
    if (!merchant) {
      throw unauthenticated(
        (await merchants.byKey(key, 'public'))
          ? 'A public key cannot call backend routes: use the licence key, on your server only.'
          : (await merchants.expiredKey(key))
            ? 'This licence key was rolled and has expired: use the new one (the dashboard showed it once; for the seeded merchant, npm run -s credentials).'
            : 'Invalid licence key.',
      );
    }
    ctx.state.merchantId = merchant.merchant_id;
    ctx.state.rateKey = `merchant:${merchant.merchant_id}`;
    return next();
  };
}

/** The intent a session-authenticated request acts on, keyed by its state object. */
const sessionIntents = new WeakMap<object, string>();

/**
 * Browser routes: the public key and the intent's session token, in X-CPE-Public-Key and
 * X-CPE-Session-Token. The token is bound to its one intent, of the key's merchant.
 */
export function sessionAuth(merchants: Merchants, payments: PaymentsService): Middleware<AppState> {
  return async (ctx, next) => {
    const publicKey = ctx.get(PUBLIC_KEY_HEADER);
    const sessionToken = ctx.get(SESSION_TOKEN_HEADER);
    if (!publicKey || !sessionToken) throw unauthenticated(`Send the public key in ${PUBLIC_KEY_HEADER} and the session token in ${SESSION_TOKEN_HEADER}.`);
    const merchant = await merchants.byKey(publicKey, 'public');
    if (!merchant) throw unauthenticated('Invalid public key.');
    const intent = await payments.bySessionToken(sessionToken);
    if (!intent || intent.merchant_id !== merchant.merchant_id) throw unauthenticated('Invalid session token for this public key.');
    ctx.state.merchantId = merchant.merchant_id;
    ctx.state.rateKey = `session:${intent.id}`;
    sessionIntents.set(ctx.state, intent.id);
    // A GET too: the session's first request moves the intent on, in a write transaction of its own.
    await payments.startSession(intent.id, requestRef(ctx));
    return next();
  };
}

/** The session's intent; a body naming another intent is refused as absent (the token is bound to one intent). */
export function sessionIntentId(ctx: Ctx, named: string | undefined): string {
  const id = sessionIntents.get(ctx.state);
  if (!id) throw unauthenticated('No session.');
  if (named !== undefined && named !== id) throw noSuch('payment intent', named, 'payment_intent_id');
  return id;
}
