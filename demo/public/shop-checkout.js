// The shop's checkout: mounts the payment method the shopper chose and says what happened after
// every outcome. The backend creates the order and its Payment Intent (it decides the amount); once a
// payment ends, the order page (/order?payment_intent=…) asks the backend, which verifies before it
// marks the order paid: events in the browser are never proof of payment.
import { mounted } from './mount.js';

const config = JSON.parse(document.getElementById('cpe-config').textContent);
const { method, language, texts } = config;
const status = document.getElementById('status');
const payButton = document.getElementById('pay');
const say = (state, text) => {
  status.dataset.state = state;
  status.textContent = text;
};
const fill = (text, values) => text.replace(/\{(\w+)\}/g, (_, name) => values[name] ?? '');

let sdk;
try {
  sdk = await import(`${config.serviceUrl}/sdk/cpe.js`);
} catch {
  say('failure', fill(texts.failed, { reason: `${config.serviceUrl}/sdk/cpe.js` }));
  throw new Error('The SDK did not load.');
}

const createServerIntent = async () => {
  const response = await fetch(`/shop/intent?method=${method}`, { method: 'POST' });
  if (!response.ok) throw new Error((await response.json().catch(() => ({})))?.error?.message ?? `HTTP ${response.status}`);
  return response.json();
};
const middleware = { authorise: '/api/cpe/authorise', verifyAuth: '/api/cpe/verify-auth' };
const total = { amount: config.amount, label: config.label };
const common = { language, theme: 'auto' };

/** The payment ended well: the order page shows the backend's checks. */
async function done(elements, verify = false) {
  say('success', verify ? texts.verifiedGoing : texts.paidGoing);
  const id = await elements.getPaymentIntentId();
  location.assign(`/order?payment_intent=${encodeURIComponent(id)}`);
}
/**
 * What an ended payment (pay()'s result, or cpe:payment:end's) means here: paid, go to the order;
 * else the element's own sentence for the shopper, in its language (the element has kept the card
 * and focused the field to fix). `said`: a Flow says it in its own frame, so the page stays quiet.
 */
function ended(elements, result, said = false) {
  if (!result.error) return done(elements);
  const { code, message } = result.error;
  if (code === 'payment_intent_paid') return say('success', texts.alreadyPaid);
  say(/cancelled$/.test(code) ? 'cancelled' : 'failure', said ? '' : message);
}
/** An element that failed to load or act (its cpe:error): the SDK's message, for the integrator. */
const onError = (event) => {
  const { code, message } = event.detail ?? {};
  if (code === 'payment_intent_paid') say('success', texts.alreadyPaid);
  else if (event.detail?.operation === 'init') say('failure', fill(texts.failed, { reason: message ?? '' }));
};

// The card element and the card fields: the page's own Pay button, enabled only when the form is
// complete; pay() runs the whole payment (3-D Secure included) through the shop's backend.
async function card(elements, element) {
  let paying = false;
  element.onChange((event) => {
    payButton.disabled = !event.detail.complete;
    if (['ready', 'incomplete'].includes(status.dataset.state)) say(event.detail.complete ? 'ready' : 'incomplete', event.detail.complete ? '' : texts.complete);
  });
  await mounted(element);
  say('incomplete', texts.complete);
  payButton.addEventListener('click', async () => {
    // aria-disabled, not disabled: the button keeps focus while the 3-D Secure modal is open.
    if (paying || payButton.disabled) return;
    paying = true;
    payButton.setAttribute('aria-disabled', 'true');
    say('busy', texts.paying);
    const result = await element.pay();
    paying = false;
    payButton.removeAttribute('aria-disabled');
    ended(elements, result);
  });
}

/** A Flow (payment or verify): it shows its own outcome; the page adds where to go next. */
function flowOutcome(elements, flow, verify = false) {
  flow.addEventListener('cpe:payment:end', (event) => (event.detail.error ? ended(elements, event.detail, true) : done(elements, verify)));
  flow.addEventListener('cpe:error', onError);
}

/** Wallet A runs the payment by itself; the page reports every end: paid, declined, cancelled, failed. */
function walletA(elements, element) {
  const wallet = elements.walletA({ element, total, appearance: { type: 'buy', style: 'dark' }, ...common });
  wallet.onAuthoriseStart(() => say('busy', texts.paying));
  // Every end, a closed sheet included (wallet_cancelled), with the element's own sentence.
  wallet.addEventListener('cpe:payment:end', (event) => ended(elements, event.detail));
  wallet.addEventListener('cpe:error', onError);
  wallet.availability.then(({ available, reason }) => !available && say('failure', fill(texts.unavailable, { reason })));
  return wallet;
}

const mounts = {
  // Every method in one element, its own Pay button: it says every outcome itself; the page goes to the order once paid.
  payment: async () => {
    const elements = await sdk.createElements({ pubKey: config.publicKey, createServerIntent, middleware });
    const element = elements.paymentElement({ element: '#pay-element', ...common });
    element.addEventListener('cpe:payment:end', (event) => ended(elements, event.detail, true));
    element.addEventListener('cpe:error', onError);
    await mounted(element);
  },
  card: async () => {
    const elements = await sdk.createElements({ pubKey: config.publicKey, createServerIntent, middleware });
    const element = elements.cardElement({ element: '#pay-element', layout: 'row', cardSchemesDisplay: 'all', ...common });
    element.addEventListener('cpe:error', onError);
    await card(elements, element);
  },
  fields: async () => {
    const elements = await sdk.createElements({ pubKey: config.publicKey, createServerIntent, middleware });
    const element = elements.cardFieldsElement({ element: '#pay-element', fields: { number: '#card-number', expiry: '#card-expiry', cvc: '#card-cvc', name: '#card-name' }, ...common });
    element.addEventListener('cpe:error', onError);
    await card(elements, element);
  },
  flow: async () => {
    const elements = await sdk.createElements({ pubKey: config.publicKey, createServerIntent, middleware: { verifyAuth: middleware.verifyAuth } });
    const flow = elements.paymentFlow({ element: '#pay-element', layout: 'stack', ...common });
    flowOutcome(elements, flow);
    await mounted(flow);
  },
  verify: async () => {
    const elements = await sdk.createElements({ pubKey: config.publicKey, createServerIntent, middleware: { verifyAuth: middleware.verifyAuth } });
    const flow = elements.verifyFlow({ element: '#pay-element', layout: 'stack', ...common });
    flowOutcome(elements, flow, true);
    await mounted(flow);
  },
  'wallet-a': async () => {
    const elements = await sdk.createElements({ pubKey: config.publicKey, createServerIntent, middleware });
    await mounted(walletA(elements, '#pay-element'));
  },
  'wallet-b': async () => {
    const elements = await sdk.createElements({ pubKey: config.publicKey, createServerIntent, middleware });
    const wallet = elements.walletB({
      element: '#pay-element', environment: 'TEST', merchantId: 'demo-merchant', merchantName: config.label, total,
      appearance: { type: 'pay', style: 'dark' }, billingAddressRequired: true, emailAddressRequired: true, ...common,
    });
    // Wallet B hands the shop the approved wallet; pay() attaches, confirms and authorises it.
    wallet
      .onTokeniseEnd(async () => {
        say('busy', texts.paying);
        ended(elements, await wallet.pay());
      })
      .onCancel(() => say('cancelled', texts.cancelled))
      .onError(onError);
    wallet.availability.then(({ available, reason }) => !available && say('failure', fill(texts.unavailable, { reason })));
    await mounted(wallet);
  },
  // Checkout Context: the buttons are live before any Payment Intent exists; the shopper's commit
  // (the Flow's Pay, the wallet's sheet) exchanges the basket's reference for one, priced by the backend.
  express: async () => {
    const elements = await sdk.createElements({
      pubKey: config.publicKey,
      middleware: { exchange: '/api/cpe/exchange', ...middleware },
      context: { amount: config.amount, currency: config.currency, reference: config.reference },
    });
    const wallet = walletA(elements, '#express-wallet');
    const flow = elements.paymentFlow({ element: '#pay-element', layout: 'stack', ...common });
    flowOutcome(elements, flow);
    await Promise.all([mounted(wallet), mounted(flow)]);
  },
};

try {
  await mounts[method]();
  if (status.dataset.state === 'loading') say('ready', '');
} catch (error) {
  say('failure', fill(texts.failed, { reason: error.message }));
}
document.body.dataset.ready = 'true';
