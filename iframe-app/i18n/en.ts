/** English: the fallback catalogue, bundled with every frame. Other languages load on demand. */
const en = {
  dir: 'ltr' as 'ltr' | 'rtl',
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
};
export type Catalogue = typeof en;
export default en;
