import Router from '@koa/router';
import type { Middleware } from 'koa';
import { z } from 'zod';
import type { Services } from '../services.ts';
import { DEFAULT_TOKENISE_RATE_LIMIT } from '../config.ts';
import type { AppState } from '../http/app-state.ts';
import { mount } from '../http/operation.ts';
import { rateLimit } from '../http/rate-limit.ts';
import { cors } from './cors.ts';
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

/** Mounted beside the frames' tokenise route: same session auth, own-origin CORS, idempotency and rate limits. */
export function walletRoutes(services: Services): Router<AppState> {
  const { idempotencyKeys, merchants, payments, config } = services;
  const router = new Router<AppState>();
  const path = '/frames/wallet/approve';
  const ownOrigin = () => new URL(config.publicUrl).origin;
  const framesCors = cors({ preflight: (origin) => origin === ownOrigin(), request: (origin) => origin === ownOrigin() });
  const limits = config.tokeniseRateLimit ?? DEFAULT_TOKENISE_RATE_LIMIT;
  const perSession = rateLimit(limits.perSession, (state) => `tokenise:${state.rateKey}`);
  const perAddress = rateLimit(limits.perIp, (_state, ip) => `tokenise-ip:${ip}`);
  const exceptPreflight =
    (middleware: Middleware<AppState>): Middleware<AppState> =>
    (ctx, next) =>
      ctx.method === 'OPTIONS' ? next() : middleware(ctx, next);

  router.options(path, framesCors.preflight);
  router.use(path, ...[framesCors.request, perAddress, sessionAuth(merchants, payments), perSession, idempotencyKeys.middleware()].map(exceptPreflight));

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
