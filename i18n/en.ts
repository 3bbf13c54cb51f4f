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
  declined: 'The payment was not completed.',
  verifyFailed: 'The card could not be verified.',
  // Why a Flow failed, by the service's error code (each says what happened once; the button says what to do).
  cardDeclined: 'Your card was declined.',
  insufficientFunds: 'Your card has insufficient funds.',
  cardRefused: 'This card cannot be used. Use another card.',
  notProcessed: 'The card could not be processed just now.',
  authFailed: 'Your bank could not confirm the payment.',
  authCancelled: 'The confirmation with your bank was cancelled.',
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
  sheetAsks: '{merchant} asks for',
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
