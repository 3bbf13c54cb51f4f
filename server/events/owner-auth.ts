import type { Middleware } from 'koa';
import { unauthenticated } from '../http/api-error.ts';
import type { AppState } from '../http/app-state.ts';
import { bearer } from '../identity/secrets.ts';
import type { Users } from '../identity/users.ts';
import type { Merchants } from '../payments/merchants.ts';

/**
 * Routes of either owner of events (events, webhook endpoints): `Authorization: Bearer` with a
 * merchant's licence key (ctx.state.merchantId) or a messaging user's access token (ctx.state.userId).
 * A public key never authenticates them.
 */
export function ownerAuth({ merchants, users }: { merchants: Merchants; users: Users }): Middleware<AppState> {
  return async (ctx, next) => {
    const secret = bearer(ctx.get('authorization'));
    if (!secret) throw unauthenticated('Send your licence key (payment events) or access token (messaging events) as `Authorization: Bearer <key>`.');
    const merchant = await merchants.byKey(secret, 'licence');
    if (merchant) {
      ctx.state.merchantId = merchant.merchant_id;
      ctx.state.rateKey = `merchant:${merchant.merchant_id}`;
      return next();
    }
    const user = await users.userOf(secret);
    if (user) {
      ctx.state.userId = user.id;
      ctx.state.rateKey = `user:${user.id}`;
      return next();
    }
    throw unauthenticated(
      (await merchants.byKey(secret, 'public'))
        ? 'A public key cannot read events: use the licence key, on your server only.'
        : 'Invalid licence key or access token.',
    );
  };
}
