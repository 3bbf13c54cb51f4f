// The shop's checkout: mounts the payment method the shopper chose and says what happened after
// every outcome. The backend creates the order and its Payment Intent (it decides the amount); once a
// payment ends, the order page (/order?payment_intent=…) asks the backend, which verifies before it
// marks the order paid: events in the browser are never proof of payment.
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
/** Not paid: the service's reason when there is one (a Flow says its own in its frame). */
const failure = (reason) => say('failure', fill(texts.declined, { reason: reason ? reason.replace(/\.?$/, '.') : '' }).replace(/\s{2,}/g, ' '));
/** Every element's error: an already paid order says so (no sheet opens for it); the rest as they are. */
const onError = (event) => {
  const { code, message } = event.detail ?? {};
  if (code === 'payment_intent_paid') say('success', texts.alreadyPaid);
  else say('failure', fill(texts.failed, { reason: message ?? '' }));
};

/** Attach, confirm (3-D Secure when asked), authorise through the shop's backend; says every end. */
async function payWith(elements, element) {
  try {
    const attach = await element.attach({});
    if (attach.status === 'requires_payment_method') return failure(attach.error?.message);
    const confirm = await element.confirm({});
    if (confirm.status !== 'requires_authorisation') return failure(`3-D Secure: ${confirm.status}`);
    const result = await element.authoriseViaBackend({ endpoint: middleware.authorise });
    if (result.authorised) return await done(elements);
    failure(result.error?.message);
  } catch (error) {
    say('failure', fill(texts.failed, { reason: error.message }));
  }
}

// The card element and the card fields: the page's own Pay button, enabled only when the form is complete.
async function card(elements, element) {
  element.onChange((event) => {
    payButton.disabled = !event.detail.complete;
    if (status.dataset.state === 'ready' || status.dataset.state === 'incomplete') say(event.detail.complete ? 'ready' : 'incomplete', event.detail.complete ? texts.ready : texts.complete);
  });
  await element.init();
  await element.awaitReady();
  say('incomplete', texts.complete);
  let paying = false;
  payButton.addEventListener('click', async () => {
    // aria-disabled, not disabled: the button keeps focus, so the 3-D Secure modal can give it back.
    if (paying || payButton.disabled) return;
    paying = true;
    payButton.setAttribute('aria-disabled', 'true');
    try {
      say('busy', texts.paying);
      await element.tokenise();
      await payWith(elements, element);
    } catch (error) {
      say('failure', fill(texts.failed, { reason: error.message }));
    } finally {
      paying = false;
      payButton.removeAttribute('aria-disabled');
      if (status.dataset.state === 'failure') await element.reset().catch(() => {});
    }
  });
}

/** A Flow (payment or verify): it shows its own outcome; the page adds where to go next. */
function flowOutcome(elements, flow, verify = false) {
  flow.addEventListener('cpe:authorise:end', (event) => (event.detail?.success ? done(elements, verify) : failure()));
  flow.addEventListener('cpe:error', onError);
}

/** Wallet A runs the payment by itself; the page reports every end: paid, declined, cancelled, failed. */
function walletA(elements, element) {
  const wallet = elements.walletA({ element, total, appearance: { type: 'buy', style: 'dark' }, ...common });
  wallet.onAuthoriseStart(() => say('busy', texts.paying));
  wallet.onAuthoriseEnd((event) => (event.detail.success ? done(elements) : failure()));
  wallet.addEventListener('cpe:wallet:cancel', () => say('cancelled', texts.cancelled));
  wallet.addEventListener('cpe:error', onError);
  wallet.availability.then(({ available, reason }) => !available && say('failure', fill(texts.unavailable, { reason })));
  return wallet;
}

const mounts = {
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
    await flow.init();
    await flow.awaitReady();
  },
  verify: async () => {
    const elements = await sdk.createElements({ pubKey: config.publicKey, createServerIntent, middleware: { verifyAuth: middleware.verifyAuth } });
    const flow = elements.verifyFlow({ element: '#pay-element', layout: 'stack', ...common });
    flowOutcome(elements, flow, true);
    await flow.init();
    await flow.awaitReady();
  },
  'wallet-a': async () => {
    const elements = await sdk.createElements({ pubKey: config.publicKey, createServerIntent, middleware });
    await walletA(elements, '#pay-element').init();
  },
  'wallet-b': async () => {
    const elements = await sdk.createElements({ pubKey: config.publicKey, createServerIntent, middleware });
    const wallet = elements.walletB({
      element: '#pay-element', environment: 'TEST', merchantId: 'demo-merchant', merchantName: config.label, total,
      appearance: { type: 'pay', style: 'dark' }, billingAddressRequired: true, emailAddressRequired: true, ...common,
    });
    // Wallet B hands the shop the approved wallet: it attaches, confirms and authorises.
    wallet
      .onTokeniseEnd(async () => {
        say('busy', texts.paying);
        await payWith(elements, wallet);
      })
      .onCancel(() => say('cancelled', texts.cancelled))
      .onError(onError);
    wallet.availability.then(({ available, reason }) => !available && say('failure', fill(texts.unavailable, { reason })));
    await wallet.init();
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
    await Promise.all([wallet.init(), flow.init()]);
  },
};

try {
  await mounts[method]();
  if (status.dataset.state === 'loading') say('ready', texts.ready);
} catch (error) {
  say('failure', fill(texts.failed, { reason: error.message }));
}
document.body.dataset.ready = 'true';
