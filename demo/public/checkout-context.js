import { showVerify } from './log.js';
import { mounted } from './mount.js';

// Checkout Context: the elements mount before any Payment Intent exists; the page says what to show
// meanwhile. The shopper's commit (the Flow's Pay, a wallet's approval) exchanges the context.
// Every end shows in the status and, once paid, the backend's verify in its panel.
const config = JSON.parse(document.getElementById('cpe-config').textContent);
const { createElements } = await import(`${config.serviceUrl}/sdk/cpe.js`);
const elements = await createElements({
  pubKey: config.publicKey,
  middleware: { exchange: '/api/cpe/exchange', verifyAuth: '/api/cpe/verify-auth' },
  context: { amount: 1234, currency: 'GBP', reference: 'basket-42' },
});
const total = { amount: 1234, label: 'Basket 42' };
const status = (text) => (document.getElementById('cc-status').textContent = text);
const ended = (how) => async (event) => {
  if (!event.detail.success) return;
  await showVerify(await elements.getPaymentIntentId());
  status(`Paid with ${how}.`);
};
// Not paid by the shopper's card or wallet: the element's own sentence, in its language (what happened,
// then what to do), as the shop says it. Anything else is a cpe:error, said below.
const SHOPPER = ['card_error', 'authentication_error', 'wallet_error'];
const notPaid = (event) => SHOPPER.includes(event.detail.error?.type) && status(event.detail.error.message);
const error = (event) => status(event.detail.code === 'payment_intent_paid' ? 'Already paid: nothing more to pay.' : `Failed: ${event.detail.message}`);

const walletA = elements
  .walletA({ element: '#cc-wallet-a', total, appearance: { type: 'check-out', style: 'dark' } })
  .onAuthoriseEnd(ended('wallet A'));
walletA.addEventListener('cpe:payment:end', notPaid);
walletA.addEventListener('cpe:error', error);
const flow = elements.paymentFlow({ element: '#cc-flow', layout: 'stack' });
flow.addEventListener('cpe:authorise:end', ended('the card'));
flow.addEventListener('cpe:payment:end', notPaid);
flow.addEventListener('cpe:error', error);
// Both ready (a wallet only where available): the end-to-end tests wait for it.
await Promise.all([mounted(walletA), mounted(flow)]);
document.body.dataset.ready = 'true';
