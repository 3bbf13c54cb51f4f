import { showVerify } from './log.js';
import { mounted } from './mount.js';

// Wallet A and wallet B, each running its own session with the service's wallet test sheet.
const config = JSON.parse(document.getElementById('cpe-config').textContent);
const { createElements } = await import(`${config.serviceUrl}/sdk/cpe.js`);
const createServerIntent = () => fetch('/api/payment-intents', { method: 'POST' }).then((r) => r.json());
const total = { amount: 1234, label: 'CPE demo order' };

function status(id, text) {
  document.getElementById(id).textContent = text;
}

// Wallet A: tokenise, attach, confirm and authorise run by themselves; the hooks report.
const a = await createElements({ pubKey: config.publicKey, createServerIntent });
const walletA = a
  .walletA({ element: '#wallet-a', total, appearance: { type: 'buy', style: 'dark' } })
  .onAuthoriseStart(() => status('wallet-a-status', 'Authorising…'))
  .onAuthoriseEnd(async (event) => {
    // The backend's verify first: the page says "paid" only after it.
    if (event.detail.success) await showVerify(await a.getPaymentIntentId());
    status('wallet-a-status', event.detail.success ? 'Paid with wallet A.' : 'Declined: choose another card and try again.');
  });
walletA.addEventListener('cpe:wallet:cancel', () => status('wallet-a-status', 'Cancelled: nothing was paid.'));
walletA.addEventListener('cpe:error', (event) =>
  status('wallet-a-status', event.detail.code === 'payment_intent_paid' ? 'Already paid: nothing more to pay.' : `Wallet A failed: ${event.detail.message}`),
);
walletA.availability.then(({ available, reason }) => !available && status('wallet-a-status', `Wallet A unavailable: ${reason}`));
await mounted(walletA);

// Wallet B: handlers first, then init; the page attaches and confirms after the shopper approves.
const b = await createElements({ pubKey: config.publicKey, createServerIntent, middleware: { authorise: '/api/cpe/authorise' } });
const walletB = b.walletB({
  element: '#wallet-b',
  environment: 'TEST',
  merchantId: 'demo-merchant',
  merchantName: 'CPE demo shop',
  total,
  appearance: { type: 'pay', style: 'dark' },
  billingAddressRequired: true,
  emailAddressRequired: true,
});
walletB
  .onTokeniseEnd(async () => {
    status('wallet-b-status', 'Approved: paying…');
    try {
      const attach = await walletB.attach({});
      if (attach.status === 'requires_payment_method') return status('wallet-b-status', attach.error?.message ?? 'Refused: choose another card.');
      const confirm = await walletB.confirm({});
      if (confirm.status !== 'requires_authorisation') return status('wallet-b-status', `Not authenticated (${confirm.status}).`);
      const result = await walletB.authoriseViaBackend({ endpoint: '/api/cpe/authorise' });
      if (result.authorised) await showVerify(await b.getPaymentIntentId());
      status('wallet-b-status', result.authorised ? 'Paid with wallet B.' : `Declined: ${result.error?.message ?? ''}`);
    } catch (error) {
      status('wallet-b-status', error.message);
    }
  })
  .onCancel(() => status('wallet-b-status', 'Cancelled: nothing was paid.'))
  .onError((event) =>
    status('wallet-b-status', event.detail?.code === 'payment_intent_paid' ? 'Already paid: nothing more to pay.' : `Wallet B failed: ${event.detail?.message ?? ''}`),
  );
walletB.availability.then(({ available, reason }) => !available && status('wallet-b-status', `Wallet B unavailable: ${reason}`));
// Both are now mounted and ready where available (the end-to-end tests wait for it).
await mounted(walletB);
document.body.dataset.ready = 'true';
