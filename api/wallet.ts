import { z } from 'zod';
import { SCHEME_NAMES } from '../protocol/runtime/card-schemes.ts';
import { WALLET_TEST_CARD_CHOICES } from '../protocol/runtime/wallet.ts';
import { IntentId, WalletName } from './payments.ts';

// The wallet test sheet's routes (iframe-app/wallet-sheet/; server/payments/wallet-routes.ts holds the test cards' numbers).

export const WalletApproveRequest = z.strictObject({
  payment_intent_id: IntentId.optional(),
  card: z
    .enum(WALLET_TEST_CARD_CHOICES)
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
