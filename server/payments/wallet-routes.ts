import Router from '@koa/router';
import type { Middleware } from 'koa';
import type { Services } from '../services.ts';
import type { AppState } from '../http/app-state.ts';
import { idempotencyMiddleware } from '../http/idempotency.ts';
import { mount } from '../http/operation.ts';
import { ownOriginOnly } from '../http/origin-refusals.ts';
import type { CardTestingLimits } from './card-testing.ts';
import { sessionAuth, sessionIntentId } from './payment-auth.ts';
import { ROUTES } from '../../api/routes.ts';
import { walletTestCard } from './test-cards.ts';

/**
 * The wallet test sheet's routes (`iframe-app/wallet-sheet/`): the shopper pressed Approve with one
 * of the test cards "in the wallet", and the service mints a single-use token for that card exactly
 * as tokenise does (the number comes from the test card table, test-cards.ts, and never leaves
 * the server), marked as a wallet token. The processor then treats it as that test card.
 *
 * Mounted beside the frames' tokenise route, as guarded: the service's own pages only (`frames_only`),
 * the card-testing limits per address, session and merchant, session auth, idempotency. The sheet
 * reads what it shows (the amount, the currency, the merchant's registered name) from the service,
 * never from its address, which the merchant page writes.
 */
export function walletRoutes(services: Services, cardTesting: CardTestingLimits): Router<AppState> {
  const { idempotencyKeys, merchants, payments, config } = services;
  const router = new Router<AppState>();
  const framesOnly = ownOriginOnly(() => config.publicUrl, {
    code: 'frames_only',
    refused: "The wallet sheet's routes answer the service's wallet sheet only",
    instead: 'A wallet payment is approved by the shopper in the wallet sheet, which the SDK opens.',
  });
  const guard: Middleware<AppState>[] = [cardTesting.perAddress, framesOnly, sessionAuth(merchants, payments)];
  router.use(ROUTES.approveWalletSheet.path, ...guard, cardTesting.perSession, cardTesting.perMerchant, idempotencyMiddleware(idempotencyKeys));
  router.use(ROUTES.retrieveWalletSheet.path, ...guard);

  mount(router, 'retrieveWalletSheet', async ({ ctx }) => {
    const merchantId = ctx.state.merchantId!;
    const intent = await payments.sessionView(merchantId, sessionIntentId(ctx, undefined));
    return { payment_intent_id: intent.paymentIntentId, amount: intent.amount, currency: intent.currency, merchant_name: (await merchants.get(merchantId))?.name ?? '' };
  });

  mount(router, 'approveWalletSheet', async ({ ctx, body }) => {
    const merchantId = ctx.state.merchantId!;
    const year = new Date().getUTCFullYear() + 3;
    const raw = { number: walletTestCard(body.card), exp_month: '12', exp_year: String(year), cvc: '123', name: `Wallet ${body.wallet.toUpperCase()} test card` };
    const { data } = await payments.tokenise(merchantId, sessionIntentId(ctx, body.payment_intent_id), raw, body.wallet);
    return {
      token: data.cp_card_token,
      scheme: data.scheme,
      last4: data.last4,
      expiry_month: data.expiry_month,
      expiry_year: data.expiry_year,
      origins: (await merchants.get(merchantId))?.origins ?? [],
    };
  });
  return router;
}
