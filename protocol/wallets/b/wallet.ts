import type { WalletDescriptor } from '../descriptor.ts';

/** Wallet B: the stand-in for a wallet behind the Payment Request API (as Google Pay). Its sheet may ask for the billing address, the e-mail and assurance details. */
export const walletB = {
  name: 'Wallet B',
  asks: ['allowCreditCards', 'allowPrepaidCards', 'assuranceDetailsRequired', 'billingAddressRequired', 'emailAddressRequired'],
  check: { method: 'https://google.com/pay', data: { apiVersion: 2, apiVersionMinor: 0 } },
} as const satisfies WalletDescriptor;
