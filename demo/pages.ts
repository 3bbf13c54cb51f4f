/** The demo merchant's HTML pages: static markup, config in a JSON block, the page script from 'self'. */

const escape = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
/** JSON safe inside a `<script type="application/json">` block. */
const jsonForScript = (value: unknown) => JSON.stringify(value).replace(/</g, '\\u003c');

export interface PageConfig {
  serviceUrl: string;
  publicKey: string;
  merchantId: number;
}

const NAV = [
  ['/', 'Card element'],
  ['/fields', 'Card fields'],
  ['/flow', 'Payment flow'],
  ['/verify', 'Verify flow'],
  ['/wallets', 'Wallets'],
  ['/checkout-context', 'Checkout Context'],
  ['/html', 'Plain HTML'],
] as const;

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
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escape(title)} · CPE demo merchant</title><link rel="icon" href="/favicon.svg" type="image/svg+xml">
<link rel="stylesheet" href="/demo.css"></head>
<body>
<header><h1>CPE demo merchant</h1><nav aria-label="Demo pages">${nav}</nav></header>
<main>
<section aria-labelledby="checkout-title"><h2 id="checkout-title">${escape(title)}: £12.34</h2>
${checkout}
${TEST_CARDS}
</section>
<section aria-labelledby="log-title"><h2 id="log-title">Events</h2><ol id="log" tabindex="0" aria-label="Event log"></ol>
<h2>Backend verify</h2><pre id="verify"></pre></section>
</main>
<script type="application/json" id="cpe-config">${jsonForScript(config)}</script>
${sdk ? `<script type="module" src="${escape(config.serviceUrl)}/sdk/cpe.js"></script>` : ''}
${script ? `<script type="module" src="${script}"></script>` : ''}
</body></html>`;
}

const PAY = `<button type="button" class="pay" id="pay" disabled>Pay £12.34</button><p id="status" role="status" data-state="loading">Loading…</p>`;

export const cardPage = (config: PageConfig) => layout('/', 'Card element', config, `${CONTROLS(true)}<div id="card"></div>${PAY}`, '/card.js');

export const fieldsPage = (config: PageConfig) =>
  layout(
    '/fields',
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
    '/html',
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
    '/flow',
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
    '/verify',
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
    '/wallets',
    'Wallets',
    config,
    `<p>Test keys: both buttons open the service's wallet test sheet, where you choose the card the wallet holds.</p>
<h3>Wallet A</h3><div id="wallet-a"></div><p id="wallet-a-status" role="status"></p>
<h3>Wallet B</h3><div id="wallet-b"></div><p id="wallet-b-status" role="status"></p>`,
    '/wallets.js',
  );

export const checkoutContextPage = (config: PageConfig) =>
  layout(
    '/checkout-context',
    'Checkout Context',
    config,
    `<p>No Payment Intent exists yet: the buttons below are live. When you commit, the backend prices
basket <code>basket-42</code> and creates the intent (<code>middleware.exchange</code>).</p>
<div id="cc-wallets"><div id="cc-wallet-a"></div><div id="cc-wallet-b"></div></div>
<div id="cc-flow"></div><p id="cc-status" role="status"></p>`,
    '/checkout-context.js',
  );
