import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Page } from 'playwright-core';
import { CARDS, cscFor, digitsOf } from './helpers/checkout.ts';
import { cardFrame, checkout, fillBasket, type Method, openShop, orderShown, payInShop, typeShopCard, useWallet } from './helpers/shop.ts';
import { startStack, type Stack } from '../../testkit/stack.ts';
import { answerChallenge, pressTab } from './helpers/frame-click.ts';

/**
 * A shopper buys in the demo shop with every component: products, basket, checkout, and the order
 * page, where the backend's verify and its checks (status, amount, currency, reference) come before
 * "paid". One purchase by keyboard alone; every other outcome shown on the page.
 */
let stack: Stack;
before(async () => {
  stack = await startStack();
});
after(async () => {
  await stack?.close();
});

const PAID_CHECKS = (reference: string, amount = '3250') => ({
  checkStatus: { expected: 'success', got: 'success', passed: true },
  checkAmount: { expected: amount, got: amount, passed: true },
  checkCurrency: { expected: 'GBP', got: 'GBP', passed: true },
  checkReference: { expected: reference, got: reference, passed: true },
});

/** Presses Tab, each time once the focus has moved, until `focused()` holds (at most 40 times). */
async function tabUntil(page: Page, focused: () => Promise<boolean>, what: string): Promise<void> {
  for (let i = 0; i < 40; i++) {
    if (await focused()) return;
    await pressTab(page);
  }
  assert.fail(`Tab never reached ${what}`);
}
const activeIs = (page: Page, selector: string, text?: string) => () =>
  page.evaluate(([s, t]) => !!document.activeElement?.matches(s!) && (!t || (document.activeElement.textContent ?? '').includes(t)), [selector, text]);

describe('buying in the shop', () => {
  it('by keyboard alone: add a product, the basket, the checkout (all methods, the card tab), the order page with its checks', async () => {
    const { page, context, problems } = await openShop(stack);
    try {
      await tabUntil(page, activeIs(page, '.product button', 'Dot-grid notebook'), 'the notebook\'s Add to basket');
      await page.keyboard.press('Enter');
      await page.locator('#status', { hasText: 'Dot-grid notebook is in your basket.' }).waitFor();
      await tabUntil(page, activeIs(page, 'header a[href="/basket"]'), 'the basket');
      await page.keyboard.press('Enter');
      await page.waitForURL(/\/basket$/);
      assert.equal(await page.locator('#basket-total').textContent(), '£8.50');
      await tabUntil(page, activeIs(page, 'a[href="/checkout"]'), 'Go to checkout');
      await page.keyboard.press('Enter');
      await page.waitForSelector('body[data-ready]', { state: 'attached' });
      // The checkout opens on <cpe-payment>: its tabs, the card form, its own Pay button, in one frame.
      const frame = page.frames().find((f) => f.url().includes('/frames/payment/'))!;
      const focused = () =>
        frame.evaluate(() => {
          let active = document.activeElement;
          while (active?.shadowRoot?.activeElement) active = active.shadowRoot.activeElement;
          return active?.getAttribute('autocomplete') ?? active?.textContent?.trim();
        });
      await tabUntil(page, async () => (await focused()) === 'cc-number', 'the card number');
      for (const text of [digitsOf(CARDS.visa), '1230', cscFor(CARDS.visa), 'Ada Lovelace']) {
        await page.keyboard.type(text);
        await pressTab(page);
      }
      assert.equal(await focused(), 'Pay £8.50');
      await page.keyboard.press('Enter');
      const order = await orderShown(page);
      assert.equal(order.status, 'paid');
      assert.deepEqual(order.checks, PAID_CHECKS(order.reference, '850'));
      assert.equal(await page.locator('#order-status').textContent(), 'Paid. Thank you!');
      assert.equal(JSON.parse((await page.locator('#verify').textContent())!).status, 'success');
      // Fulfilled by the shop's own webhook endpoint: the event it received is this order's payment_intent.succeeded.
      const eventId = await page.locator('#order-event').getAttribute('data-event');
      assert.match(eventId ?? '', /^evt_/, (await page.locator('#order-event').textContent()) ?? 'no #order-event');
      const event = await (await fetch(`${stack.serviceUrl}/v1/events/${eventId}`, { headers: { authorization: `Bearer ${stack.service.credentials.licenceKey}` } })).json();
      assert.deepEqual([event.type, event.data.object.identifier, event.data.object.status], ['payment_intent.succeeded', order.reference, 'succeeded']);
      assert.match((await page.locator('#order-event').textContent())!, new RegExp(`Fulfilled on payment_intent\\.succeeded ${eventId}`));
      assert.equal(await page.locator('header .count').count(), 0, 'the basket is empty once paid');
      assert.deepEqual(problems, []);
    } finally {
      await context.close();
    }
  });

  const buys: Array<[Method, string, (page: Page) => Promise<void>]> = [
    ['fields', 'card fields', async (page) => {
      await typeShopCard(page, CARDS.mastercard, true);
      await payInShop(page);
    }],
    ['flow', 'the payment flow, through 3-D Secure', async (page) => {
      await typeShopCard(page, CARDS.challenge);
      await cardFrame(page).getByRole('button', { name: 'Pay £32.50' }).click();
      await answerChallenge(page);
    }],
    ['wallet-a', 'wallet A', (page) => useWallet(page, '#pay-element', 'visa')],
    ['wallet-b', 'wallet B', (page) => useWallet(page, '#pay-element', 'visa')],
    ['express', 'Checkout Context: the Flow', async (page) => {
      await typeShopCard(page, CARDS.visa);
      await cardFrame(page).getByRole('button', { name: 'Pay £32.50' }).click();
    }],
    ['express', 'Checkout Context: wallet A', (page) => useWallet(page, '#express-wallet', 'visa')],
  ];
  for (const [method, name, buy] of buys) {
    it(`with ${name}: paid, and the order page shows the backend's checks`, async () => {
      const { page, context, problems } = await openShop(stack);
      try {
        await fillBasket(page);
        await checkout(page, stack, method);
        await buy(page);
        const order = await orderShown(page);
        assert.equal(order.status, 'paid', await page.locator('#order-status').textContent() ?? '');
        assert.deepEqual(order.checks, PAID_CHECKS(order.reference));
        assert.deepEqual(problems, []);
      } finally {
        await context.close();
      }
    });
  }

  it('pay on dispatch (the verify flow): the card is checked for 0, the order says when it will be charged', async () => {
    const { page, context, problems } = await openShop(stack);
    try {
      await fillBasket(page);
      await checkout(page, stack, 'verify');
      await typeShopCard(page, CARDS.visa);
      await cardFrame(page).getByRole('button', { name: 'Verify Card' }).click();
      const order = await orderShown(page);
      assert.equal(order.status, 'verified');
      assert.deepEqual(order.checks, PAID_CHECKS(order.reference, '0'));
      assert.match((await page.locator('#order-status').textContent())!, /charged £32\.50 when the parcel leaves/);
      assert.deepEqual(problems, []);
    } finally {
      await context.close();
    }
  });
});

describe('the checkout says it is ready only once its elements are', () => {
  it('every method, and the component pages that say it: body[data-ready] comes after each element\'s cpe:ready', async () => {
    // The wallet and express checkouts set it once init() resolved, before their frames' handshake:
    // a first click could reach a frame not yet live (clickOrPress's fallback covered it in tests).
    const early: string[] = [];
    const pages = [...(['payment', 'card', 'fields', 'flow', 'wallet-a', 'wallet-b', 'express', 'verify'] as const).map((m) => `/checkout?method=${m}`), ...['card', 'fields', 'wallets', 'checkout-context'].map((c) => `/components/${c}`)];
    for (const path of pages) {
      const { page, context } = await openShop(stack);
      try {
        // When data-ready is set, which of the page's elements have not yet said cpe:ready.
        await page.addInitScript(`{
          const ready = new Set();
          document.addEventListener('cpe:ready', (event) => ready.add(event.target), true);
          new MutationObserver((changes, observer) => {
            if (!document.body?.dataset.ready) return;
            observer.disconnect();
            window.__notReady = [...document.querySelectorAll('*')].filter((e) => e.localName.startsWith('cpe-') && !ready.has(e)).map((e) => e.localName);
          }).observe(document, { attributes: true, subtree: true, attributeFilter: ['data-ready'] });
        }`);
        if (path.startsWith('/checkout')) await fillBasket(page);
        await page.goto(`${stack.demoUrl}${path}`);
        await page.waitForSelector('body[data-ready]', { state: 'attached' });
        const notReady = (await page.evaluate('window.__notReady')) as string[];
        if (notReady.length) early.push(`${path}: ${notReady.join(', ')}`);
      } finally {
        await context.close();
      }
    }
    assert.deepEqual(early, []);
  });
});

describe('every outcome shows on the page', () => {
  it('a declined card: the checkout says so and stays; another card then pays the same order', async () => {
    const { page, context } = await openShop(stack);
    try {
      await fillBasket(page);
      await checkout(page, stack, 'card');
      await typeShopCard(page, CARDS.declined);
      await payInShop(page);
      await page.locator('#status[data-state="failure"]').waitFor();
      assert.equal(await page.locator('#status').textContent(), 'Your card was declined. Use another card.');
      assert.match(page.url(), /\/checkout/);
      // The number was cleared (expiry, code and name kept): another card's number is all it takes.
      await cardFrame(page).getByLabel('Card number').pressSequentially(digitsOf(CARDS.visa));
      await payInShop(page);
      const order = await orderShown(page);
      assert.equal(order.status, 'paid');
    } finally {
      await context.close();
    }
  });

  for (const method of ['wallet-a', 'wallet-b'] as const) {
    it(`${method}: cancelled says nothing was paid; declined says so; both leave the shopper at the checkout`, async () => {
      const { page, context } = await openShop(stack);
      try {
        await fillBasket(page);
        await checkout(page, stack, method);
        await useWallet(page, '#pay-element', 'cancel');
        await page.locator('#status[data-state="cancelled"]', { hasText: 'You closed the wallet, so nothing was paid. You can try again.' }).waitFor();
        await useWallet(page, '#pay-element', 'declined');
        await page.locator('#status[data-state="failure"]', { hasText: 'Your card was declined. Use another card.' }).waitFor();
        assert.match(page.url(), /\/checkout/);
      } finally {
        await context.close();
      }
    });
  }

  it('an order whose payment did not succeed is not marked paid: the page shows the failed check', async () => {
    const { page, context } = await openShop(stack);
    try {
      await fillBasket(page);
      const id = await page.evaluate(() => fetch('/shop/intent?method=card', { method: 'POST' }).then((r) => r.json()).then((s) => s.paymentIntentId as string));
      await page.goto(`${stack.demoUrl}/order?payment_intent=${id}`);
      const order = await orderShown(page);
      assert.equal(order.status, 'awaiting');
      assert.equal(order.checks.checkStatus!.passed, false);
      assert.match((await page.locator('#order-status').textContent())!, /^Not paid/);
      assert.equal(await page.locator('header .count').textContent(), '2', 'the basket is kept');
      // Another shopper (another cookie) cannot see it.
      const other = await stack.newPage();
      const response = await other.page.goto(page.url());
      assert.equal(response?.status(), 404);
      await other.context.close();
    } finally {
      await context.close();
    }
  });

  it('an empty basket: the checkout says so; the backend creates no intent for it', async () => {
    const { page, context } = await openShop(stack);
    try {
      // Not checkout(): an empty basket's page never marks itself ready for a payment (that waited out its minute).
      await page.goto(`${stack.demoUrl}/checkout?method=card`);
      await page.locator('main', { hasText: 'Your basket is empty.' }).waitFor();
      const status = await page.evaluate(() => fetch('/shop/intent?method=card', { method: 'POST' }).then((r) => r.status));
      assert.equal(status, 400);
    } finally {
      await context.close();
    }
  });

  it('the basket: one more, one fewer, remove; the checkout charges what the basket says', async () => {
    const { page, context } = await openShop(stack);
    try {
      await fillBasket(page);
      await page.goto(`${stack.demoUrl}/basket`);
      await page.getByRole('button', { name: 'One more: Dot-grid notebook' }).click();
      assert.equal(await page.locator('#basket-total').textContent(), '£41.00');
      await page.getByRole('button', { name: 'Remove: Fountain pen' }).click();
      await page.getByRole('button', { name: 'One fewer: Dot-grid notebook' }).click();
      assert.equal(await page.locator('#basket-total').textContent(), '£8.50');
      await checkout(page, stack, 'card');
      assert.equal(await page.locator('#checkout-total').textContent(), '£8.50');
      assert.equal(await page.locator('#pay').textContent(), 'Pay £8.50');
    } finally {
      await context.close();
    }
  });
});

describe('the inbox over the messaging API', () => {
  const api = (path: string) =>
    fetch(`${stack.serviceUrl}/v1${path}`, { headers: { authorization: `Bearer ${stack.service.credentials.accessToken}` } }).then((r) => r.json());

  it('add a contact, write and receive, pin, mute, archive and restore: each shown on the page and kept by the service', async () => {
    const { page, context, problems } = await openShop(stack);
    try {
      await page.goto(`${stack.demoUrl}/inbox`);
      await page.getByLabel('Username').fill('grace');
      await page.getByLabel('Phone number').fill('+44 20 7946 0958');
      await page.getByLabel('Phone number').press('Enter');
      await page.locator('h2', { hasText: 'grace' }).waitFor();
      assert.equal(await page.locator('[role=status]').textContent(), 'Done: grace.');
      for (const [text, from] of [['Hello Grace', 'user'], ['Hello Ada', 'contact']] as const) {
        await page.getByLabel('Message').fill(text);
        await page.getByLabel('From').selectOption(from);
        await page.getByRole('button', { name: 'Send' }).click();
        await page.locator('.messages li', { hasText: text }).waitFor();
      }
      assert.deepEqual(await page.locator('.messages li').evaluateAll((lis) => lis.map((li) => li.className)), ['user', 'contact']);
      await page.getByRole('button', { name: 'Pin' }).click();
      await page.getByRole('button', { name: 'Unpin' }).waitFor();
      assert.equal(await page.locator('[role=status]').textContent(), 'Done: Pin.');
      await page.getByRole('button', { name: 'Mute' }).click();
      await page.getByRole('button', { name: 'Unmute' }).waitFor();
      assert.equal(await page.locator('.conversations li', { hasText: 'grace' }).locator('.badge').allTextContents().then((b) => b.join(' ')), 'pinned muted');
      const id = new URL(page.url()).pathname.split('/').pop()!;
      let conversation = await api(`/conversations/${id}`);
      assert.deepEqual([conversation.is_pinned, conversation.is_muted, conversation.archived_at], [true, true, null]);
      await page.getByRole('button', { name: 'Archive' }).click();
      await page.getByRole('button', { name: 'Move to inbox' }).waitFor();
      assert.match(page.url(), /archived=true/);
      assert.equal(await page.locator('.conversations li', { hasText: 'grace' }).locator('.badge', { hasText: 'archived' }).count(), 1);
      conversation = await api(`/conversations/${id}`);
      assert.equal(typeof conversation.archived_at, 'number');
      await page.getByRole('button', { name: 'Move to inbox' }).click();
      await page.getByRole('button', { name: 'Archive' }).waitFor();
      assert.equal((await api(`/conversations/${id}`)).archived_at, null);
      assert.deepEqual(problems, []);
    } finally {
      await context.close();
    }
  });

  it('what the service refuses is said on the page (an invalid phone number)', async () => {
    const { page, context } = await openShop(stack);
    try {
      await page.goto(`${stack.demoUrl}/inbox`);
      await page.getByLabel('Username').fill('nobody');
      await page.getByLabel('Phone number').fill('not a number');
      await page.getByRole('button', { name: 'Add', exact: true }).click();
      assert.match((await page.getByRole('alert').textContent())!, /^The service refused: .*phone/);
    } finally {
      await context.close();
    }
  });
});

describe('the forms take posts from the shop\'s own pages only', () => {
  it('a page of another origin cannot add a contact with the demo user\'s token, nor fill a basket', async () => {
    const before = (await fetch(`${stack.serviceUrl}/v1/contacts?limit=100`, { headers: { authorization: `Bearer ${stack.service.credentials.accessToken}` } }).then((r) => r.json())).data.length;
    for (const [path, body] of [['/inbox/contacts', 'username=mallory&phone_number=%2B44+20+7946+0000'], ['/basket/add', 'product=pen']]) {
      const response = await fetch(`${stack.demoUrl}${path}`, { method: 'POST', redirect: 'manual', headers: { origin: 'http://evil.example', 'content-type': 'application/x-www-form-urlencoded' }, body });
      assert.equal(response.status, 403, path);
    }
    const after = (await fetch(`${stack.serviceUrl}/v1/contacts?limit=100`, { headers: { authorization: `Bearer ${stack.service.credentials.accessToken}` } }).then((r) => r.json())).data.length;
    assert.equal(after, before);
    // From the shop's own origin the same post works.
    const own = await fetch(`${stack.demoUrl}/basket/add`, { method: 'POST', redirect: 'manual', headers: { origin: stack.demoUrl, 'content-type': 'application/x-www-form-urlencoded' }, body: 'product=pen' });
    assert.equal(own.status, 303);
  });

  it('the language form goes back to a page of the shop only (no open redirect)', async () => {
    for (const [back, location] of [['/basket', '/basket'], ['//evil.example/', '/'], ['/\\evil.example/', '/'], ['https://evil.example/', '/']]) {
      const response = await fetch(`${stack.demoUrl}/language`, {
        method: 'POST', redirect: 'manual', headers: { origin: stack.demoUrl, 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ language: 'de', back }).toString(),
      });
      assert.equal(response.headers.get('location'), location, back);
      assert.match(response.headers.get('set-cookie') ?? '', /demo_lang=de/);
    }
  });
});

describe('the component pages moved under /components', () => {
  it('the old paths redirect (308, the query kept); the root with card settings opens the card page', async () => {
    for (const [from, to] of [
      ['/fields?theme=dark', '/components/fields?theme=dark'],
      ['/flow', '/components/flow'],
      ['/verify', '/components/verify'],
      ['/wallets', '/components/wallets'],
      ['/checkout-context', '/components/checkout-context'],
      ['/html', '/components/html'],
      ['/?layout=row&theme=dark', '/components/card?layout=row&theme=dark'],
    ]) {
      const response = await fetch(`${stack.demoUrl}${from}`, { redirect: 'manual' });
      assert.equal(response.status, 308, from);
      assert.equal(response.headers.get('location'), to);
    }
    const shop = await fetch(`${stack.demoUrl}/`);
    assert.match(await shop.text(), /Stationery for careful notes/);
  });
});
