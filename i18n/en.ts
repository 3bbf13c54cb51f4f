/**
 * English: the fallback catalogue, bundled with every frame; every other language is a file of its
 * own with exactly these keys (a test checks), loaded only when used. One catalogue serves every text
 * the service shows: the card form and fields, the Flows, the wallet button and sheet, the titles of
 * the SDK's dialogs (sent to the element with `ready`) and the 3-D Secure challenge page (rendered by
 * the service). `{name}` placeholders are filled in.
 */
const en = {
  dir: 'ltr' as 'ltr' | 'rtl',
  // Card form and fields.
  number: 'Card number',
  expiry: 'Expiry date',
  cvc: 'Security code',
  name: 'Name on card',
  numberPlaceholder: '1234 1234 1234 1234',
  expiryPlaceholder: 'MM / YY',
  cvcPlaceholder: 'CVC',
  namePlaceholder: 'Full name',
  numberIncomplete: 'Your card number is incomplete.',
  numberInvalid: 'Your card number is invalid.',
  expiryIncomplete: 'Your card’s expiry date is incomplete.',
  expiryInvalid: 'Your card’s expiry month is invalid.',
  expiryPast: 'Your card’s expiry date is in the past.',
  cvcIncomplete: 'Your card’s security code is incomplete.',
  nameRequired: 'Enter the name shown on your card.',
  refused: 'This card was refused. Check the details or use another card.',
  formTitle: 'Card details',
  acceptedCards: 'Accepted cards',
  unavailable: 'This payment form cannot be shown here.',
  // Flows.
  pay: 'Pay {amount}',
  payPlain: 'Pay',
  verifyCard: 'Verify Card',
  processing: 'Processing…',
  tryAgain: 'Try again',
  paid: 'Payment complete.',
  verified: 'Card verified.',
  declined: 'The payment did not go through, so nothing was paid. Try again.',
  verifyFailed: 'Your card could not be checked. Try again or use another card.',
  // Why a payment did not go through, by the error code (shared/i18n.ts REASONS): what happened,
  // once, then what to do (docs/shopper-texts.md).
  cardDeclined: 'Your card was declined. Use another card.',
  insufficientFunds: 'Your card was declined for insufficient funds. Use another card.',
  cardRefused: 'This card cannot be used. Use another card.',
  notProcessed: 'Your card could not be processed just now. Try again.',
  authFailed: 'Your bank could not confirm it is you, so nothing was paid. Try again or use another card.',
  authCancelled: 'You closed the check with your bank, so nothing was paid. You can try again.',
  incorrectCvc: 'The security code is not right. Check it on your card and enter it again.',
  expiredCard: 'Your card has expired. Use another card.',
  walletCancelled: 'You closed the wallet, so nothing was paid. You can try again.',
  loadFailed: 'The payment form could not be loaded. Try again.',
  // The payment element (<cpe-payment>): its methods' tabs.
  methodCard: 'Card',
  paymentMethods: 'Payment method',
  walletPanel: 'You will confirm the payment in {wallet}.',
  // Wallet buttons ({wallet}: the wallet's name).
  walletTypes: {
    'add-money': 'Add money with {wallet}',
    book: 'Book with {wallet}',
    buy: 'Buy with {wallet}',
    'check-out': 'Check out with {wallet}',
    contribute: 'Contribute with {wallet}',
    donate: 'Donate with {wallet}',
    order: 'Order with {wallet}',
    pay: 'Pay with {wallet}',
    plain: '{wallet}',
    reload: 'Reload with {wallet}',
    rent: 'Rent with {wallet}',
    subscribe: 'Subscribe with {wallet}',
    support: 'Support with {wallet}',
    tip: 'Tip with {wallet}',
    'top-up': 'Top up with {wallet}',
  },
  // The wallet test sheet ({merchant}: the merchant's name).
  sheetTitle: '{wallet} (test)',
  sheetPayTo: 'Pay {merchant}',
  sheetAmount: 'Amount',
  sheetShares: 'Shared with the merchant',
  sheetAsksNothing: 'Only the card.',
  sheetBilling: 'Billing address',
  sheetEmail: 'Email address',
  sheetAssurance: 'Assurance details',
  sheetCreditNo: 'Credit cards are not accepted.',
  sheetPrepaidNo: 'Prepaid cards are not accepted.',
  sheetCard: 'Card in the wallet',
  // What each test card does, after "Visa •••• 4242".
  sheetCards: {
    visa: 'approved',
    challenge: '3-D Secure challenge',
    declined: 'declined',
    insufficient: 'insufficient funds',
    attach_fail: 'refused when attached',
  },
  approve: 'Approve',
  cancel: 'Cancel',
  sheetFailed: 'The wallet could not approve the payment. Try again or cancel.',
  sheetWaiting: 'Connecting…',
  sheetTestNote: 'Test mode: no real wallet or card is used.',
  // The SDK's 3-D Secure dialog (its title and its frame's title).
  challengeDialog: 'Verify your payment',
  challengeFrame: '3-D Secure verification',
  // The service's 3-D Secure test page.
  challengeTitle: '3-D Secure test challenge',
  challengeConfirm: 'Confirm the payment to {merchant}',
  challengeNote: 'Test mode: choose the outcome of this authentication.',
  challengeComplete: 'Complete',
  challengeFail: 'Fail',
  challengeDone: 'Authentication complete.',
  challengeFailed: 'Authentication failed.',
  challengeClose: 'You can close this window.',
  challengeMissing: 'This authentication has expired or does not exist.',
};
export type Catalogue = typeof en;
export default en;
