import Router from '@koa/router';
import type { Middleware } from 'koa';
import { z } from 'zod';
import type { Services } from '../services.ts';
import type { AppState } from '../http/app-state.ts';
import { mount } from '../http/operation.ts';
import { ownOriginOnly } from '../http/origin-refusals.ts';
import type { CardTestingLimits } from './card-testing.ts';
import { sessionAuth, sessionIntentId } from './payment-auth.ts';
import { SCHEME_NAMES } from './cards.ts';
import { WalletName } from './schemas.ts';

/**
 * The wallet test sheet's one route (`iframe-app/wallet-sheet/`): the shopper pressed Approve with
 * one of the test cards "in the wallet", and the service mints a single-use token for that card
 * exactly as tokenise does (the number is fixed here and never leaves the server), marked as a wallet
 * token. The processor then accepts, declines or challenges it as the contract's test card table says.
 */
export const WALLET_TEST_CARDS = {
  visa: '4242424242424242',
  challenge: '4000000000003220',
  declined: '4000000000000002',
  insufficient: '4000000000009995',
  attach_fail: '4000000000000127',
} as const;
export type WalletTestCard = keyof typeof WALLET_TEST_CARDS;

export const WalletApproveRequest = z.strictObject({
  payment_intent_id: z.string().regex(/^pi_[A-Za-z0-9]{1,64}$/, 'expected a payment intent id (pi_…)').optional(),
  card: z
    .enum(Object.keys(WALLET_TEST_CARDS) as [WalletTestCard, ...WalletTestCard[]])
    .describe('The test card the shopper chose in the sheet: visa (approved), challenge (3-D Secure), declined, insufficient (funds), attach_fail'),
  wallet: WalletName.describe('Which wallet\'s sheet approved'),
});

export const WalletApproveResponse = z
  .object({
    token: z.string().describe('Single-use tok_… for attach, like tokenise\'s, marked as a wallet token (payment_method.wallet)'),
    scheme: z.enum(SCHEME_NAMES),
    last4: z.string(),
    expiry_month: z.int(),
    expiry_year: z.int(),
    origins: z.array(z.string()).describe('The merchant\'s page origins: the sheet posts its result to these only'),
  })
  .meta({ id: 'WalletApproveResponse' });

export const WalletSheetView = z
  .object({
    payment_intent_id: z.string(),
    amount: z.int().describe('What will be charged, in minor units'),
    currency: z.string(),
    merchant_name: z.string().describe("The merchant's registered name"),
  })
  .meta({ id: 'WalletSheetView' });

/**
 * Mounted beside the frames' tokenise route, as guarded: the service's own pages only (`frames_only`),
 * the card-testing limits per address, session and merchant, session auth, idempotency. The sheet
 * reads what it shows (the amount, the currency, the merchant's registered name) from the service,
 * never from its address, which the merchant page writes.
 */
export function walletRoutes(services: Services, cardTesting: CardTestingLimits): Router<AppState> {
  const { idempotencyKeys, merchants, payments, config } = services;
  const router = new Router<AppState>();
  const path = '/frames/wallet/approve';
  const framesOnly = ownOriginOnly(() => config.publicUrl, {
    code: 'frames_only',
    refused: "The wallet sheet's routes answer the service's wallet sheet only",
    instead: 'A wallet payment is approved by the shopper in the wallet sheet, which the SDK opens.',
  });
  const guard: Middleware<AppState>[] = [cardTesting.perAddress, framesOnly, sessionAuth(merchants, payments)];
  router.use(path, ...guard, cardTesting.perSession, cardTesting.perMerchant, idempotencyKeys.middleware());
  router.use('/frames/wallet/sheet', ...guard);

  mount(router, {
    auth: 'session',
    tag: 'Hosted frames',
    method: 'post',
    path: '/frames/wallet/sheet',
    summary: 'Wallet test sheet: what it shows (the amount, the currency, the merchant\'s registered name) (hosted frames only)',
    body: z.strictObject({}),
    response: WalletSheetView,
    handler: async ({ ctx }) => {
      const merchantId = ctx.state.merchantId!;
      const intent = await payments.sessionView(merchantId, sessionIntentId(ctx, undefined));
      return { payment_intent_id: intent.paymentIntentId, amount: intent.amount, currency: intent.currency, merchant_name: (await merchants.get(merchantId))?.name ?? '' };
    },
  });

  mount(router, {
    auth: 'session',
    tag: 'Hosted frames',
    method: 'post',
    path,
    summary: 'Wallet test sheet: Approve with a test card; a single-use wallet token (hosted frames only)',
    body: WalletApproveRequest,
    response: WalletApproveResponse,
    handler: async ({ ctx, body }) => {
      const merchantId = ctx.state.merchantId!;
      const year = new Date().getUTCFullYear() + 3;
      const raw = { number: WALLET_TEST_CARDS[body.card], exp_month: '12', exp_year: String(year), cvc: '123', name: `Wallet ${body.wallet.toUpperCase()} test card` };
      const { data } = await payments.tokenise(merchantId, sessionIntentId(ctx, body.payment_intent_id), raw, body.wallet);
      return {
        token: data.cp_card_token,
        scheme: data.scheme,
        last4: data.last4,
        expiry_month: data.expiry_month,
        expiry_year: data.expiry_year,
        origins: (await merchants.get(merchantId))?.origins ?? [],
      };
    },
  });
  return router;
}
