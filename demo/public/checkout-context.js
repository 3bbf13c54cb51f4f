import { showVerify } from './log.js';

// Checkout Context: the elements mount before any Payment Intent exists; the page says what to show
// meanwhile. The shopper's commit (the Flow's Pay, a wallet's approval) exchanges the context.
const config = JSON.parse(document.getElementById('cpe-config').textContent);
const { createElements } = await import(`${config.serviceUrl}/sdk/cpe.js`);
const elements = await createElements({
  pubKey: config.publicKey,
  middleware: { exchange: '/api/cpe/exchange', verifyAuth: '/api/cpe/verify-auth' },
  context: { amount: 1234, currency: 'GBP', reference: 'basket-42' },
});
const total = { amount: 1234, label: 'Basket 42' };
const status = (text) => (document.getElementById('cc-status').textContent = text);

const walletA = elements
  .walletA({ element: '#cc-wallet-a', total, appearance: { type: 'check-out', style: 'dark' } })
  .onAuthoriseEnd(async (event) => {
    if (event.detail.success) await showVerify(await elements.getPaymentIntentId());
    status(event.detail.success ? 'Paid with wallet A.' : 'Declined.');
  });
const flow = elements.paymentFlow({ element: '#cc-flow', layout: 'stack' });
await Promise.all([walletA.init(), flow.init()]);
document.body.dataset.ready = 'true';
