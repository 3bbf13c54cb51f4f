// The demo merchant's checkout logic, shared by its pages. Everything a merchant page would write:
// load the SDK from the service, create the controller, run tokenise → attach → confirm →
// authorise (through this merchant's backend) → verify (the backend decides whether to fulfil).
import { showVerify } from './log.js';

const config = JSON.parse(document.getElementById('cpe-config').textContent);
const params = new URLSearchParams(location.search);
export const settings = {
  layout: params.get('layout') || 'row',
  theme: params.get('theme') || 'auto',
  language: params.get('language') || 'en',
  mode: params.get('mode') === 'middleware' ? 'middleware' : 'direct',
};

const status = document.getElementById('status');
const verifyOutput = document.getElementById('verify');
const payButton = document.getElementById('pay');

function show(state, text) {
  status.dataset.state = state;
  status.textContent = text;
}

// The controls reload the page with the chosen settings (a merchant would pick them once).
for (const select of document.querySelectorAll('.controls select')) {
  select.value = settings[select.name];
  select.addEventListener('change', () => {
    params.set(select.name, select.value);
    location.search = params.toString();
  });
}

/** The page asks its own backend for a Payment Intent; the licence key never reaches this page. */
async function createServerIntent() {
  const response = await fetch('/api/payment-intents', { method: 'POST' });
  if (!response.ok) throw new Error(`The demo backend could not create a Payment Intent (${response.status})`);
  return response.json();
}

const middleware = { attach: '/api/cpe/attach', confirm: '/api/cpe/confirm', authorise: '/api/cpe/authorise', verifyAuth: '/api/cpe/verify-auth' };

export async function start(mount) {
  let sdk;
  try {
    sdk = await import(`${config.serviceUrl}/sdk/cpe.js`);
  } catch {
    show('failure', `The SDK could not be loaded from ${config.serviceUrl}/sdk/cpe.js: is the service running?`);
    return;
  }
  const elements = await sdk.createElements({
    pubKey: config.publicKey,
    createServerIntent,
    ...(settings.mode === 'middleware' ? { middleware } : {}),
  });
  const element = mount(elements);
  // Handy in the console (and for the end-to-end tests): the controller and the element.
  window.demo = { elements, element };
  await element.init();
  document.body.dataset.intent = await elements.getPaymentIntentId();
  await element.awaitReady();
  show('ready', `Ready: ${settings.mode} mode. Pay £12.34 with a test card.`);
  payButton.disabled = false;
  payButton.addEventListener('click', () => pay(elements, element));
  // Mounted and ready (the end-to-end tests wait for it).
  document.body.dataset.ready = 'true';
}

let paying = false;
async function pay(elements, element) {
  // aria-disabled, not disabled: the button keeps focus, so the 3-D Secure modal can give it back.
  if (paying) return;
  paying = true;
  payButton.setAttribute('aria-disabled', 'true');
  verifyOutput.textContent = '';
  try {
    show('busy', 'Paying…');
    await element.tokenise();
    const attach = await element.attach({});
    if (attach.status === 'requires_payment_method') {
      return show('failure', `${attach.error?.message ?? 'The card was refused.'} Try another card.`);
    }
    const confirm = await element.confirm({});
    if (confirm.status !== 'requires_authorisation') {
      return show('failure', `Authentication did not succeed (${confirm.status}). Try again or use another card.`);
    }
    const authorise = await element.authoriseViaBackend({ endpoint: '/api/cpe/authorise' });
    // Client-side events are never proof of payment: the backend verifies before fulfilling.
    const verify = await showVerify(await elements.getPaymentIntentId());
    if (authorise.authorised && verify.status === 'success') show('success', `Paid: ${verify.auth.scheme} ending ${verify.auth.last4}, authorisation ${verify.auth.authorisation_code}.`);
    else show('failure', `${authorise.error?.message ?? 'Not authorised.'} Try another card.`);
  } catch (error) {
    // The element emitted cpe:error with the same message (see the event log).
    show('failure', error.message);
  } finally {
    paying = false;
    payButton.removeAttribute('aria-disabled');
    if (status.dataset.state === 'failure') await element.reset().catch(() => {});
  }
}
