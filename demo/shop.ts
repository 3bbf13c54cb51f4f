import { randomBytes } from 'node:crypto';
import type Koa from 'koa';
import type { CpeClient } from '../client/index.ts';
import { CpeApiError, toSession } from '../client/index.ts';
import { isRefundable } from '../protocol/runtime/intent-status.ts';
import { escape, shell, type PageConfig } from './chrome.ts';
import { money, translator, type Language, type T, type Text } from './i18n.ts';
import { orderBook } from './order-book.ts';

/**
 * The demo shop: products, a basket per visitor, a checkout offering every component, and an order
 * page showing how the backend checked the payment (the service's verify: status, amount, currency,
 * reference) before marking the order paid. Server-rendered forms: every page works without a script
 * of its own and by keyboard alone; only the checkout runs the SDK.
 */

interface Product {
  id: string;
  price: number;
  names: Record<Language, [name: string, description: string]>;
  /** A small picture, drawn in the page's colours (`currentColor`) and one accent. */
  picture: string;
}

const svg = (body: string) => `<svg class="picture" viewBox="0 0 120 90" aria-hidden="true" focusable="false">${body}</svg>`;
export const PRODUCTS: Product[] = [
  {
    id: 'notebook',
    price: 850,
    names: {
      en: ['Dot-grid notebook', 'A5, 160 pages of 100 g paper that fountain pens love.'],
      de: ['Punktraster-Notizbuch', 'A5, 160 Seiten 100-g-Papier, das Füller lieben.'],
      ar: ['دفتر بنقاط منتظمة', 'مقاس A5، ‏160 صفحة من ورق 100 غرام تحبه أقلام الحبر.'],
    },
    picture: svg('<rect x="30" y="10" width="60" height="72" rx="4" fill="#1a5fd6"/><rect x="36" y="10" width="6" height="72" fill="#0b3d91"/><g fill="#fff" opacity=".7"><circle cx="56" cy="30" r="1.6"/><circle cx="64" cy="30" r="1.6"/><circle cx="72" cy="30" r="1.6"/><circle cx="80" cy="30" r="1.6"/><circle cx="56" cy="38" r="1.6"/><circle cx="64" cy="38" r="1.6"/><circle cx="72" cy="38" r="1.6"/><circle cx="80" cy="38" r="1.6"/></g>'),
  },
  {
    id: 'pen',
    price: 2400,
    names: {
      en: ['Fountain pen', 'A steel nib, a converter and a cartridge of blue-black ink.'],
      de: ['Füllfederhalter', 'Stahlfeder, Konverter und eine Patrone blauschwarzer Tinte.'],
      ar: ['قلم حبر', 'ريشة فولاذية ومحوّل وخرطوشة حبر أزرق داكن.'],
    },
    picture: svg('<g transform="rotate(-35 60 45)"><rect x="20" y="38" width="62" height="14" rx="7" fill="#2e7d4f"/><rect x="70" y="38" width="10" height="14" fill="#c9a227"/><path d="M82 38 L104 45 L82 52 Z" fill="#8a8f98"/><rect x="28" y="34" width="30" height="3" rx="1.5" fill="#c9a227"/></g>'),
  },
  {
    id: 'ink',
    price: 600,
    names: {
      en: ['Blue-black ink', '50 ml bottle, dries fast, safe for every fountain pen.'],
      de: ['Blauschwarze Tinte', '50-ml-Flasche, trocknet schnell, für jeden Füller geeignet.'],
      ar: ['حبر أزرق داكن', 'زجاجة 50 مل، يجف بسرعة، آمن لكل أقلام الحبر.'],
    },
    picture: svg('<rect x="44" y="12" width="32" height="14" rx="3" fill="#3a3f47"/><path d="M36 30 h48 a6 6 0 0 1 6 6 v40 a6 6 0 0 1 -6 6 h-48 a6 6 0 0 1 -6 -6 v-40 a6 6 0 0 1 6 -6 z" fill="#243b6b"/><rect x="42" y="46" width="36" height="18" rx="2" fill="#fff" opacity=".85"/>'),
  },
  {
    id: 'pencils',
    price: 384,
    names: {
      en: ['Pencil set', 'Six graphite pencils, 4H to 4B, in a tin.'],
      de: ['Bleistiftset', 'Sechs Graphitstifte, 4H bis 4B, in einer Dose.'],
      ar: ['طقم أقلام رصاص', 'ستة أقلام رصاص من 4H إلى 4B في علبة معدنية.'],
    },
    picture: svg('<g fill="#e0a526"><rect x="24" y="20" width="10" height="56"/><rect x="40" y="20" width="10" height="56"/><rect x="56" y="20" width="10" height="56"/><rect x="72" y="20" width="10" height="56"/><rect x="88" y="20" width="10" height="56"/></g><g fill="#f3d9a4"><path d="M24 20 l5 -10 l5 10z"/><path d="M40 20 l5 -10 l5 10z"/><path d="M56 20 l5 -10 l5 10z"/><path d="M72 20 l5 -10 l5 10z"/><path d="M88 20 l5 -10 l5 10z"/></g><rect x="18" y="56" width="86" height="24" rx="3" fill="#8a8f98"/>'),
  },
];
const productOf = (id: unknown) => PRODUCTS.find((p) => p.id === id);

export const METHODS = ['payment', 'card', 'fields', 'flow', 'wallet-a', 'wallet-b', 'express', 'verify'] as const;
export type Method = (typeof METHODS)[number];
const METHOD_TEXT: Record<Method, [Text, Text]> = {
  payment: ['methodPayment', 'aboutPayment'],
  card: ['methodCard', 'aboutCard'],
  fields: ['methodFields', 'aboutFields'],
  flow: ['methodFlow', 'aboutFlow'],
  'wallet-a': ['methodWalletA', 'aboutWalletA'],
  'wallet-b': ['methodWalletB', 'aboutWalletB'],
  express: ['methodExpress', 'aboutExpress'],
  verify: ['methodVerify', 'aboutVerify'],
};

interface Line {
  product: Product;
  quantity: number;
}
interface Basket {
  quantities: Map<string, number>;
  /** Names this basket as it is now (Checkout Context's `reference`): a new one at every change. */
  reference: string;
}
export interface Check {
  name: Text;
  expected: string;
  got: string;
  passed: boolean;
}
export interface Order {
  reference: string;
  visitor: string;
  lines: { id: string; quantity: number; price: number }[];
  amount: number;
  currency: 'GBP';
  purpose: 'payment' | 'verify';
  method: Method;
  intentId?: string;
  /** awaiting: no verified payment yet; paid; verified (a card check, charged on dispatch). */
  status: 'awaiting' | 'paid' | 'verified';
  verify?: Record<string, any>;
  checks?: Check[];
  /** The intent's refunds, newest first (read again at every view of a paid order). */
  refunds?: Refund[];
  /** The event the shop's webhook endpoint received that fulfilled it (payment_intent.succeeded). */
  fulfilledBy?: { event: string; type: string };
}

type Refund = Awaited<ReturnType<CpeClient['createRefund']>>;

/** How long the order page waits for the webhook of a payment it has just seen verified. */
const EVENT_WAIT_MS = 3_000;

type Verify = Awaited<ReturnType<CpeClient['verify']>>;

/**
 * The checks the backend makes before fulfilling: the service's verify says success, and the
 * payment is for this order (its amount, its currency, its reference). Events in the browser are
 * never proof of payment.
 */
export function checkOrder(order: Order, verify: Verify): Check[] {
  const expectedAmount = order.purpose === 'verify' ? 0 : order.amount;
  return [
    { name: 'checkStatus', expected: 'success', got: verify.status, passed: verify.status === 'success' },
    { name: 'checkAmount', expected: String(expectedAmount), got: String(verify.auth?.amount ?? '—'), passed: verify.auth?.amount === expectedAmount },
    { name: 'checkCurrency', expected: order.currency, got: String(verify.auth?.currency ?? '—'), passed: verify.auth?.currency?.toUpperCase() === order.currency },
    { name: 'checkReference', expected: order.reference, got: String(verify.auth?.identifier ?? '—'), passed: verify.auth?.identifier === order.reference },
  ];
}

export interface ShopContext {
  visitor: string;
  language: Language;
}

export function createShop(options: {
  cpe: CpeClient;
  merchantId: number;
  page: PageConfig;
  allow(visitor: string, intentId: string): void;
  /** Whether the shop has its webhook endpoint (the service may refuse it). */
  fulfilsOnEvents(): boolean;
  dataDir?: string;
}) {
  const { cpe, merchantId } = options;
  const baskets = new Map<string, Basket>();
  // Orders (and their numbers) survive a restart: kept in the data folder.
  const book = orderBook<Order>(options.dataDir);
  const orders = book.orders;
  /** Order pages waiting for their webhook, by order reference. */
  const waiting = new Map<string, Set<() => void>>();
  let nextOrder = book.lastNumber;

  /** Resolves once the order is fulfilled, or after `ms` (the page then says it is waiting). */
  const fulfilment = (order: Order, ms: number) =>
    order.fulfilledBy || order.status === 'awaiting' || !options.fulfilsOnEvents()
      ? Promise.resolve()
      : new Promise<void>((resolve) => {
          const set = waiting.get(order.reference) ?? new Set();
          waiting.set(order.reference, set);
          const done = () => {
            clearTimeout(timer);
            set.delete(done);
            resolve();
          };
          const timer = setTimeout(done, ms);
          set.add(done);
        });

  const basketOf = (visitor: string): Basket => {
    let basket = baskets.get(visitor);
    if (!basket) baskets.set(visitor, (basket = { quantities: new Map(), reference: newReference() }));
    return basket;
  };
  const newReference = () => `basket-${randomBytes(6).toString('hex')}`;
  const linesOf = (basket: Basket): Line[] =>
    [...basket.quantities].flatMap(([id, quantity]) => {
      const product = productOf(id);
      return product && quantity > 0 ? [{ product, quantity }] : [];
    });
  const totalOf = (lines: Line[]) => lines.reduce((sum, l) => sum + l.product.price * l.quantity, 0);
  const countOf = (visitor: string) => [...basketOf(visitor).quantities.values()].reduce((a, b) => a + b, 0);

  function change(visitor: string, id: string, delta: number | 'remove') {
    const basket = basketOf(visitor);
    if (!productOf(id)) return;
    const quantity = delta === 'remove' ? 0 : Math.min(99, Math.max(0, (basket.quantities.get(id) ?? 0) + delta));
    if (quantity) basket.quantities.set(id, quantity);
    else basket.quantities.delete(id);
    basket.reference = newReference();
  }

  /** An order of the visitor's basket as it is now; undefined when the basket is empty. */
  function newOrder(visitor: string, method: Method): Order | undefined {
    const lines = linesOf(basketOf(visitor));
    if (!lines.length) return undefined;
    const order: Order = {
      reference: `ORD-${++nextOrder}-${randomBytes(3).toString('hex').toUpperCase()}`,
      visitor,
      lines: lines.map((l) => ({ id: l.product.id, quantity: l.quantity, price: l.product.price })),
      amount: totalOf(lines),
      currency: 'GBP',
      purpose: method === 'verify' ? 'verify' : 'payment',
      method,
      status: 'awaiting',
    };
    orders.set(order.reference, order);
    book.save();
    return order;
  }
  const intentInput = (order: Order) => ({
    merchantid: merchantId,
    amount: order.purpose === 'verify' ? 0 : order.amount,
    currency: order.currency,
    identifier: order.reference,
    ...(order.purpose === 'verify' && { purpose: 'verify' as const }),
    billTo: { firstname: 'Ada', lastname: 'Lovelace', email: 'ada@example.com', postcode: 'N1 9GU', country: 'GB' },
  });

  /** Every refund of the intent, newest first, page by page. */
  async function refundsOf(intentId: string): Promise<Refund[]> {
    const refunds: Refund[] = [];
    for (let after: string | undefined, more = true; more; after = refunds.at(-1)?.id) {
      const page = await cpe.listRefunds({ payment_intent: intentId, limit: 100, ...(after && { starting_after: after }) });
      refunds.push(...page.data);
      more = page.has_more && page.data.length > 0;
    }
    return refunds;
  }

  /**
   * The backend's verify, then the checks; the order is paid (or its card verified) only if all pass.
   * Once paid, the basket empties; a paid order's page reads its refunds and verify again each time.
   */
  async function settle(order: Order): Promise<void> {
    if (order.status === 'paid' && order.intentId) {
      order.verify = await cpe.verify({ payment_intent_id: order.intentId, unmask_fields: [] });
      order.refunds = await refundsOf(order.intentId);
      return;
    }
    if (order.status !== 'awaiting' || !order.intentId) return;
    const verify = await cpe.verify({ payment_intent_id: order.intentId, unmask_fields: [] });
    order.verify = verify;
    order.checks = checkOrder(order, verify);
    if (order.checks.every((c) => c.passed)) {
      order.status = order.purpose === 'verify' ? 'verified' : 'paid';
      book.save();
      const basket = basketOf(order.visitor);
      basket.quantities.clear();
      basket.reference = newReference();
    }
  }

  return {
    countOf,
    add: (visitor: string, id: string) => change(visitor, id, 1),
    change,

    /** POST /shop/intent?method=…: an order of the basket and its Payment Intent (amount and reference from the backend). */
    async createIntent(visitor: string, method: Method) {
      const order = newOrder(visitor, method);
      if (!order) return undefined;
      const created = await cpe.createPaymentIntent(intentInput(order));
      order.intentId = created.paymentIntentId;
      book.save();
      options.allow(visitor, created.paymentIntentId);
      return toSession(created);
    },

    /** Checkout Context: the basket named by `context.reference`, priced now; the order is created at commit. */
    exchange(visitor: string, body: unknown) {
      const reference = String((body as { context?: { reference?: unknown } })?.context?.reference ?? '');
      if (basketOf(visitor).reference !== reference) return undefined;
      const order = newOrder(visitor, 'express');
      return order && { order, input: intentInput(order) };
    },
    linkIntent(order: Order, intentId: string) {
      order.intentId = intentId;
      book.save();
    },

    /** GET /order?payment_intent=…: this visitor's order of that intent, settled (verify and checks). */
    async orderOfIntent(visitor: string, intentId: string): Promise<Order | undefined> {
      const order = [...orders.values()].find((o) => o.visitor === visitor && o.intentId === intentId);
      if (order) await settle(order);
      return order;
    },
    /** An order page: verified for the shopper, and (briefly awaited) fulfilled by its webhook event. */
    async order(visitor: string, reference: string): Promise<Order | undefined> {
      const order = orders.get(reference);
      if (order?.visitor !== visitor) return undefined;
      await settle(order);
      await fulfilment(order, EVENT_WAIT_MS);
      return order;
    },

    /**
     * The shop's webhook endpoint got payment_intent.succeeded: the order whose reference the intent
     * carries is fulfilled, once (a repeat of the event changes nothing).
     */
    fulfil(event: { id: string; type: string; data: { object: { id: string; identifier: string } } }): void {
      const order = orders.get(event.data.object.identifier);
      if (!order || order.intentId !== event.data.object.id || order.fulfilledBy) return;
      order.fulfilledBy = { event: event.id, type: event.type };
      book.save();
      for (const done of waiting.get(order.reference) ?? []) done();
      waiting.delete(order.reference);
    },

    /**
     * The staff's Refund button: the shop's backend refunds through the API with its licence key
     * (`amount` in pounds as typed, empty: all that remains). Answers what to tell the staff.
     */
    async refund(visitor: string, reference: string, amountText: string): Promise<{ ok: boolean; text: string }> {
      const order = orders.get(reference);
      if (order?.visitor !== visitor || order.status !== 'paid' || !order.intentId) return { ok: false, text: 'no paid order' };
      const typed = amountText.trim().replace(',', '.');
      if (typed && !/^\d{1,7}(\.\d{1,2})?$/.test(typed)) return { ok: false, text: `"${amountText}" is not an amount such as 12.34` };
      try {
        const refund = await cpe.createRefund({ payment_intent: order.intentId, reason: 'requested_by_customer', ...(typed && { amount: Math.round(Number(typed) * 100) }) });
        return { ok: true, text: `${refund.amount}:${refund.status}` };
      } catch (error) {
        if (error instanceof CpeApiError) return { ok: false, text: error.message };
        throw error;
      }
    },

    shopPage(c: ShopContext, added?: string) {
      const t = translator(c.language);
      const addedProduct = productOf(added);
      const cards = PRODUCTS.map((p) => {
        const [name, description] = p.names[c.language];
        return `<li class="product">${p.picture}<h2>${escape(name)}</h2><p>${escape(description)}</p>
<p class="price">${escape(money(c.language, p.price))}</p>
<form method="post" action="/basket/add"><input type="hidden" name="product" value="${p.id}">
<button type="submit" class="primary">${t('addToBasket')}<span class="visually-hidden">: ${escape(name)}</span></button></form></li>`;
      }).join('\n');
      const status = addedProduct ? `${t('added', { name: addedProduct.names[c.language][0] })} <a href="/basket">${t('toCheckout')}</a>` : '';
      return shell({
        path: '/',
        title: t('navShop'),
        language: c.language,
        basketCount: countOf(c.visitor),
        languageForm: true,
        body: `<h1>${t('shopTitle')}</h1><p>${t('shopIntro')}</p>
<p id="status" role="status" class="notice"${status ? '' : ' hidden'}>${status}</p>
<ul class="products">${cards}</ul>`,
      });
    },

    basketPage(c: ShopContext) {
      const t = translator(c.language);
      const lines = linesOf(basketOf(c.visitor));
      const button = (id: string, action: string, label: string, text: string) =>
        `<form method="post" action="/basket/update"><input type="hidden" name="product" value="${id}"><input type="hidden" name="action" value="${action}"><button type="submit" aria-label="${escape(label)}">${text}</button></form>`;
      const rows = lines
        .map(({ product, quantity }) => {
          const name = product.names[c.language][0];
          return `<tr><th scope="row">${escape(name)}</th><td>${escape(money(c.language, product.price))}</td>
<td><div class="quantity">${button(product.id, 'fewer', `${t('fewer')}: ${name}`, '−')}<output aria-label="${escape(`${t('quantity')}: ${name}`)}">${quantity}</output>${button(product.id, 'more', `${t('more')}: ${name}`, '+')}</div></td>
<td>${escape(money(c.language, product.price * quantity))}</td><td>${button(product.id, 'remove', `${t('remove')}: ${name}`, t('remove'))}</td></tr>`;
        })
        .join('\n');
      const body = lines.length
        ? `<h1>${t('basketTitle')}</h1><div class="panel"><table class="basket"><caption class="visually-hidden">${t('basketTitle')}</caption>
<thead><tr><th scope="col">${t('product')}</th><th scope="col">${t('price')}</th><th scope="col">${t('quantity')}</th><th scope="col">${t('lineTotal')}</th><th scope="col"><span class="visually-hidden">${t('remove')}</span></th></tr></thead>
<tbody>${rows}</tbody><tfoot><tr><th scope="row" colspan="3">${t('total')}</th><td colspan="2" id="basket-total">${escape(money(c.language, totalOf(lines)))}</td></tr></tfoot></table>
<p><a class="button primary" href="/checkout">${t('toCheckout')}</a></p></div>`
        : `<h1>${t('basketTitle')}</h1><p>${t('basketEmpty')}</p><p><a href="/">${t('backToShop')}</a></p>`;
      return shell({ path: '/basket', title: t('basketTitle'), language: c.language, basketCount: countOf(c.visitor), languageForm: true, body });
    },

    checkoutPage(c: ShopContext, method: Method) {
      const t = translator(c.language);
      const basket = basketOf(c.visitor);
      const lines = linesOf(basket);
      if (!lines.length) {
        return shell({
          path: '/checkout', title: t('checkoutTitle'), language: c.language, basketCount: 0, languageForm: true,
          body: `<h1>${t('checkoutTitle')}</h1><p>${t('basketEmpty')}</p><p><a href="/">${t('backToShop')}</a></p>`,
        });
      }
      const total = totalOf(lines);
      const methods = METHODS.map((m) => `<li><a href="/checkout?method=${m}"${m === method ? ' aria-current="page"' : ''}>${t(METHOD_TEXT[m][0])}</a></li>`).join('');
      const amount = money(c.language, total);
      const mount = {
        payment: '<div id="pay-element"></div>',
        card: `<div id="pay-element"></div><button type="button" class="primary pay" id="pay" disabled>${escape(t('pay', { amount }))}</button>`,
        fields: `<div id="pay-element" class="fields"><div class="wide" id="card-number"></div><div id="card-expiry"></div><div id="card-cvc"></div><div class="wide" id="card-name"></div></div>
<button type="button" class="primary pay" id="pay" disabled>${escape(t('pay', { amount }))}</button>`,
        flow: '<div id="pay-element"></div>',
        'wallet-a': '<div id="pay-element"></div>',
        'wallet-b': '<div id="pay-element"></div>',
        express: '<div id="express-wallet"></div><div id="pay-element"></div>',
        verify: '<div id="pay-element"></div>',
      }[method];
      const summary = lines
        .map((l) => `<li><span>${l.quantity} × ${escape(l.product.names[c.language][0])}</span><span>${escape(money(c.language, l.product.price * l.quantity))}</span></li>`)
        .join('');
      const texts = Object.fromEntries((['loading', 'complete', 'paying', 'paidGoing', 'verifiedGoing', 'cancelled', 'alreadyPaid', 'failed', 'unavailable'] as const).map((k) => [k, t(k)]));
      return shell({
        path: '/checkout',
        title: t('checkoutTitle'),
        language: c.language,
        basketCount: countOf(c.visitor),
        languageForm: true,
        body: `<h1>${t('checkoutTitle')}</h1>
<div class="checkout">
<section class="panel" aria-labelledby="summary-title"><h2 id="summary-title">${t('summary')}</h2><ul class="summary">${summary}</ul>
<p class="summary-total"><span>${t('total')}</span> <strong id="checkout-total">${escape(amount)}</strong></p></section>
<section class="panel" aria-labelledby="method-title"><h2 id="method-title">${t('paymentMethod')}</h2>
<nav aria-labelledby="method-title"><ul class="methods">${methods}</ul></nav>
<p class="about">${escape(t(METHOD_TEXT[method][1]))}</p>
${mount}
<p id="status" role="status" data-state="loading">${t('loading')}</p>
${testCards(t)}
</section>
</div>`,
        config: { ...options.page, method, language: c.language, amount: total, currency: 'GBP', label: t('brand'), reference: basket.reference, texts },
        scripts: ['/shop-checkout.js'],
      });
    },

    orderPage(c: ShopContext, order: Order | undefined, notice?: { done?: string; error?: string }) {
      const t = translator(c.language);
      if (!order) {
        return shell({ path: '/orders', title: t('orderMissing'), language: c.language, basketCount: countOf(c.visitor), languageForm: true, body: `<h1>${t('orderMissing')}</h1><p><a href="/">${t('backToShop')}</a></p>` });
      }
      const amount = money(c.language, order.amount);
      const captured: number = order.verify?.auth?.amount_captured ?? 0;
      const refunded = refundedOf(order.refunds ?? []);
      const outcome =
        order.status === 'paid' ? (captured > 0 && refunded >= captured ? t('orderRefunded') : t('orderPaid')) : order.status === 'verified' ? t('orderVerified', { amount }) : t('orderNotPaid');
      const lines = order.lines
        .map((l) => `<li><span>${l.quantity} × ${escape(productOf(l.id)!.names[c.language][0])}</span><span>${escape(money(c.language, l.price * l.quantity))}</span></li>`)
        .join('');
      const checks = (order.checks ?? [])
        .map(
          (k) =>
            `<tr data-check="${k.name}" data-passed="${k.passed}"><th scope="row">${t(k.name)}</th><td data-label="${escape(t('expected'))}"><code>${escape(k.expected)}</code></td><td data-label="${escape(t('verifySays'))}"><code>${escape(k.got)}</code></td><td class="${k.passed ? 'pass' : 'fail'}" data-label="${escape(t('result'))}">${k.passed ? '✓' : '✗'} ${t(k.passed ? 'pass' : 'fail')}</td></tr>`,
        )
        .join('');
      const auth = order.verify?.auth;
      const fulfilled = order.fulfilledBy
        ? `<p id="order-event" class="notice good" data-event="${escape(order.fulfilledBy.event)}">${t('orderFulfilled', { type: `<code>${escape(order.fulfilledBy.type)}</code>`, event: `<bdi><code>${escape(order.fulfilledBy.event)}</code></bdi>` })}</p>`
        : order.status === 'awaiting' || !options.fulfilsOnEvents()
          ? ''
          : `<p id="order-event" class="notice" data-event="">${t('orderAwaitingEvent', { type: '<code>payment_intent.succeeded</code>' })}</p>`;
      return shell({
        path: `/orders/${order.reference}`,
        title: t('orderTitle', { reference: order.reference }),
        language: c.language,
        basketCount: countOf(c.visitor),
        languageForm: true,
        body: `<h1>${t('orderTitle', { reference: `<bdi class="reference">${escape(order.reference)}</bdi>` })}</h1>
<p id="order-status" role="status" class="notice ${order.status === 'awaiting' ? 'bad' : 'good'}" data-status="${order.status}">${escape(outcome)}</p>
${fulfilled}
<div class="checkout order">
<section class="panel" aria-labelledby="summary-title"><h2 id="summary-title">${t('summary')}</h2><ul class="summary">${lines}</ul>
<p class="summary-total"><span>${t('total')}</span> <strong>${escape(amount)}</strong></p>
${auth?.last4 ? `<p>${t('card')}: ${escape(auth.scheme ?? '')} •••• <bdi>${escape(auth.last4)}</bdi></p>` : ''}
<p><a href="/">${t('continueShopping')}</a></p></section>
<section class="panel" aria-labelledby="checks-title"><h2 id="checks-title">${t(order.purpose === 'verify' ? 'howCheckedCard' : 'howChecked')}</h2>
<table class="checks"><thead><tr><th scope="col">${t('check')}</th><th scope="col">${t('expected')}</th><th scope="col">${t('verifySays')}</th><th scope="col">${t('result')}</th></tr></thead><tbody>${checks}</tbody></table>
<h3>${t('verifyAnswer')}</h3><pre id="verify" tabindex="0" dir="ltr">${escape(JSON.stringify(order.verify ?? null, null, 2))}</pre></section>
${order.status === 'paid' ? refundsPanel(c.language, t, order, captured, refunded, notice) : ''}
</div>`,
      });
    },
  };
}

export type Shop = ReturnType<typeof createShop>;

/**
 * The order page's panel for the shop's staff: what was refunded of what was captured, each refund
 * with its status, and a Refund form (the shop's backend calls the API; a pending refund of the
 * refund-failure test card shows as pending, then failed, on the next view).
 */
function refundsPanel(language: Language, t: T, order: Order, captured: number, refunded: number, notice: { done?: string; error?: string } = {}): string {
  const remaining = captured - refunded;
  const rows = (order.refunds ?? [])
    .map((r) => `<tr data-refund="${escape(r.id)}" data-status="${r.status}"><td>${escape(money(language, r.amount, r.currency))}</td><td class="${r.status === 'failed' ? 'fail' : r.status === 'succeeded' ? 'pass' : ''}">${t(`refundStatus_${r.status}`)}</td></tr>`)
    .join('');
  const [doneAmount, doneStatus] = (notice.done ?? '').split(':');
  const message = notice.error
    ? `<p id="refund-notice" role="status" class="notice bad">${escape(t('refundError', { reason: notice.error }))}</p>`
    : doneStatus
      ? `<p id="refund-notice" role="status" class="notice good">${escape(t('refundDone', { amount: money(language, Number(doneAmount)), status: t(`refundStatus_${doneStatus as Refund['status']}`) }))}</p>`
      : '';
  const form =
    isRefundable(order.verify?.intent_status) && remaining > 0
      ? `<form method="post" action="/orders/${encodeURIComponent(order.reference)}/refund" class="refund-form"><label for="refund-amount">${t('refundAmount')}</label>
<input id="refund-amount" name="amount" inputmode="decimal" autocomplete="off" dir="ltr" value="${(remaining / 100).toFixed(2)}"><button type="submit" class="primary" id="refund">${t('refundButton')}</button></form>`
      : '';
  return `<section class="panel" aria-labelledby="refunds-title"><h2 id="refunds-title">${t('refundsTitle')}</h2>${message}
<p id="refunded" data-refunded="${refunded}" data-captured="${captured}">${escape(t('refundedOf', { refunded: money(language, refunded), captured: money(language, captured) }))}</p>
${rows ? `<table class="refunds"><caption class="visually-hidden">${t('refundsTitle')}</caption><tbody>${rows}</tbody></table>` : `<p>${t('refundNone')}</p>`}
${form}</section>`;
}

/**
 * What is refunded, from the refunds read at this view: those pending or succeeded, as the intent's
 * `amount_refunded` counts them. Not from the verify answer read just before: a refund settling
 * between the two reads showed failed beside an amount still counting it.
 */
const refundedOf = (refunds: readonly Refund[]): number => refunds.reduce((sum, r) => sum + (r.status === 'failed' ? 0 : r.amount), 0);

/** The test cards as the shop lists them (the end-to-end tests skip this block when looking for card data). */
function testCards(t: T): string {
  return `<p class="cards">${t('testCards')} <bdi><code>4242 4242 4242 4242</code></bdi> ${t('approved')} · <bdi><code>4000 0000 0000 3220</code></bdi> ${t('challenge')} · <bdi><code>4000 0000 0000 0002</code></bdi> ${t('declinedCard')}</p>`;
}

/** The visitor's language: `?lang=` (remembered in a cookie), else the cookie, else English. */
export function languageOf(ctx: Koa.Context, isLanguage: (v: unknown) => v is Language): Language {
  const asked = ctx.query.lang;
  if (isLanguage(asked)) {
    ctx.cookies.set('demo_lang', asked, { httpOnly: true, sameSite: 'lax', overwrite: true });
    return asked;
  }
  const remembered = ctx.cookies.get('demo_lang');
  return isLanguage(remembered) ? remembered : 'en';
}
