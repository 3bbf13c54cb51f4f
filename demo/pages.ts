/** The demo merchant's HTML pages: static markup, config in a JSON block, the page script from 'self'. */

import { escape, shell, type PageConfig } from './chrome.ts';
export type { PageConfig };

/** The component pages, one element each (with the event log and the backend's verify), under /components. */
export const COMPONENT_PAGES = [
  ['/components/card', 'Card element'],
  ['/components/fields', 'Card fields'],
  ['/components/flow', 'Payment flow'],
  ['/components/verify', 'Verify flow'],
  ['/components/wallets', 'Wallets'],
  ['/components/checkout-context', 'Checkout Context'],
  ['/components/html', 'Plain HTML'],
] as const;
const NAV = COMPONENT_PAGES;

const TEST_CARDS = `<p class="cards">Test cards (any future expiry, any CSC, any name):
<code>4242 4242 4242 4242</code> approved ·
<code>4000 0000 0000 3220</code> 3-D Secure challenge ·
<code>4000 0000 0000 0002</code> declined ·
<code>4000 0000 0000 9995</code> insufficient funds ·
<code>4000 0000 0000 0127</code> refused at attach</p>`;

const SELECT = (name: string, label: string, options: readonly string[]) =>
  `<label>${label}<select name="${name}">${options.map((o) => `<option value="${o}">${o}</option>`).join('')}</select></label>`;

const CONTROLS = (layouts: boolean) => `<div class="controls">
${layouts ? SELECT('layout', 'Layout', ['stack', 'row-minimal', 'row-compact', 'row', 'column-compact', 'column']) : ''}
${SELECT('theme', 'Theme', ['auto', 'light', 'dark'])}
${SELECT('language', 'Language', ['en', 'cy', 'fr', 'de', 'es', 'it', 'nl', 'ar'])}
${SELECT('mode', 'Mode', ['direct', 'middleware'])}
</div>`;

function layout(path: string, title: string, config: PageConfig, checkout: string, script?: string, sdk = false): string {
  const nav = NAV.map(([href, text]) => `<a href="${href}"${href === path ? ' aria-current="page"' : ''}>${text}</a>`).join(' ');
  return shell({
    path,
    title,
    language: 'en',
    basketCount: 0,
    config,
    scripts: [...(sdk ? [`${config.serviceUrl}/sdk/cpe.js`] : []), ...(script ? [script] : [])],
    body: `<nav class="components" aria-label="Component pages">${nav}</nav>
<div class="component-page">
<section class="panel" aria-labelledby="checkout-title"><h1 id="checkout-title">${escape(title)}: £12.34</h1>
${checkout}
${TEST_CARDS}
</section>
<section class="panel" aria-labelledby="log-title"><h2 id="log-title">Events</h2><ol id="log" tabindex="0" aria-label="Event log"></ol>
<h2 id="verify-title">Backend verify</h2><pre id="verify" tabindex="0" aria-labelledby="verify-title"></pre></section>
</div>`,
  });
}

const PAY = `<button type="button" class="primary pay" id="pay" disabled>Pay £12.34</button><p id="status" role="status" data-state="loading">Loading…</p>`;

export const cardPage = (config: PageConfig) => layout('/components/card', 'Card element', config, `${CONTROLS(true)}<div id="card"></div>${PAY}`, '/card.js');

export const fieldsPage = (config: PageConfig) =>
  layout(
    '/components/fields',
    'Card fields',
    config,
    `${CONTROLS(false)}<div id="card-fields" class="fields">
<div class="wide"><span id="l-number">Card number</span><div id="card-number"></div></div>
<div><span>Expiry date</span><div id="card-expiry"></div></div>
<div><span>Security code</span><div id="card-cvc"></div></div>
<div class="wide"><span>Name on card</span><div id="card-name"></div></div>
</div>${PAY}`,
    '/fields.js',
  );

/** No script of its own: the SDK module and two tags mount a card (the Flow page pays the same way). */
export const htmlPage = (config: PageConfig) =>
  layout(
    '/components/html',
    'Plain HTML',
    config,
    `<p>This page has no script of its own: only the SDK module and the tags below.</p>
<script type="module" src="${escape(config.serviceUrl)}/sdk/cpe.js"></script>
<cpe-elements pub-key="${escape(config.publicKey)}" intent-url="/api/payment-intents">
  <cpe-card layout="stack"></cpe-card>
</cpe-elements>`,
  );

/**
 * The Flow with no script of the page's own: the SDK module, a provider and the Flow tag take the
 * payment (tokenise, attach, confirm with 3-D Secure, authorise, the backend's verify) and show
 * success, failure and Try again.
 */
export const flowPage = (config: PageConfig) =>
  layout(
    '/components/flow',
    'Payment flow',
    config,
    `<p>No script of the page's own: the SDK module, <code>&lt;cpe-elements&gt;</code> and <code>&lt;cpe-payment-flow&gt;</code>.</p>
<cpe-elements pub-key="${escape(config.publicKey)}" intent-url="/api/payment-intents" verify-auth-url="/api/cpe/verify-auth">
  <cpe-payment-flow layout="stack"></cpe-payment-flow>
</cpe-elements>`,
    '/flow-verify.js',
    true,
  );

/** A card check without a payment: the intent is a verification (amount 0); the card can be vaulted. */
export const verifyPage = (config: PageConfig) =>
  layout(
    '/components/verify',
    'Verify flow',
    config,
    `<cpe-elements pub-key="${escape(config.publicKey)}" intent-url="/api/verify-intents" verify-auth-url="/api/cpe/verify-auth">
  <cpe-verify-flow layout="stack"></cpe-verify-flow>
</cpe-elements>`,
    '/flow-verify.js',
    true,
  );

export const walletsPage = (config: PageConfig) =>
  layout(
    '/components/wallets',
    'Wallets',
    config,
    `<p>Test keys: both buttons open the service's wallet test sheet, where you choose the card the wallet holds.</p>
<h3>Wallet A</h3><div id="wallet-a"></div><p id="wallet-a-status" role="status"></p>
<h3>Wallet B</h3><div id="wallet-b"></div><p id="wallet-b-status" role="status"></p>`,
    '/wallets.js',
  );

export const checkoutContextPage = (config: PageConfig) =>
  layout(
    '/components/checkout-context',
    'Checkout Context',
    config,
    `<p>No Payment Intent exists yet: the buttons below are live. When you commit, the backend prices
basket <code>basket-42</code> and creates the intent (<code>middleware.exchange</code>).</p>
<div id="cc-wallets"><div id="cc-wallet-a"></div><div id="cc-wallet-b"></div></div>
<div id="cc-flow"></div><p id="cc-status" role="status"></p>`,
    '/checkout-context.js',
  );
