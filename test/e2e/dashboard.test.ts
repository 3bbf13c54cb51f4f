import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import type { Page } from 'playwright-core';
import { CpeClient } from '../../client/index.ts';
import { CARDS, digitsOf } from './helpers/checkout.ts';
import { goTo, openDashboard } from './helpers/dashboard.ts';
import { checkout, fillBasket, openShop, orderShown, payInShop, typeShopCard } from './helpers/shop.ts';
import { startStack, type Stack } from '../../testkit/stack.ts';

/**
 * The dashboard as the issue proves it, in Chromium across real origins: sign in; pay in the demo
 * shop in another tab and see the payment appear; open it; refund £5 of it by keyboard alone and see
 * the refund and its event; add a webhook endpoint to a local receiver, see a failed attempt, fix the
 * receiver, press Retry, see it succeed; a second merchant sees none of the first's data; the request
 * log holds no card number or key.
 */
let stack: Stack;
before(async () => {
  stack = await startStack();
});
after(async () => {
  await stack?.close();
});

/** A local webhook receiver on port 0: answers `status` (changeable) and keeps what it received. */
async function receiver(): Promise<{ url: string; status: number; received: { headers: Record<string, unknown>; body: string }[]; server: Server }> {
  const state = { url: '', status: 500, received: [] as { headers: Record<string, unknown>; body: string }[], server: undefined as unknown as Server };
  state.server = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk: Buffer) => (body += chunk));
    req.on('end', () => {
      state.received.push({ headers: req.headers, body });
      res.writeHead(state.status, { 'content-type': 'text/plain' }).end(state.status < 300 ? 'ok' : 'receiver is down');
    });
  });
  await new Promise<void>((resolve) => state.server.listen(0, '127.0.0.1', resolve));
  state.url = `http://127.0.0.1:${(state.server.address() as AddressInfo).port}/hooks`;
  return state;
}

/** Presses Tab until `focused()` holds (at most 60 times). */
async function tabTo(page: Page, focused: () => Promise<boolean>, what: string): Promise<void> {
  for (let i = 0; i < 60; i++) {
    if (await focused()) return;
    await page.keyboard.press('Tab');
  }
  assert.fail(`Tab never reached ${what}`);
}
const focusedText = (page: Page, text: string) => () => page.evaluate((t) => (document.activeElement?.textContent ?? '').trim() === t, text);

describe('the dashboard, end to end', () => {
  let paymentId = '';
  let reference = '';

  it('a payment in the demo shop (another tab) appears in the list without a reload; it opens', async () => {
    const dash = await openDashboard(stack, { path: '/dashboard/payments' });
    const shop = await openShop(stack);
    try {
      await fillBasket(shop.page);
      await checkout(shop.page, stack, 'card');
      await typeShopCard(shop.page, CARDS.visa);
      await payInShop(shop.page);
      const order = await orderShown(shop.page);
      assert.equal(order.status, 'paid');
      reference = order.reference;

      // The list shows it by itself (the page polls the merchant's events), and follows it to Succeeded
      // (the row may first show as the payment was a moment earlier).
      const row = dash.page.locator('tbody tr', { hasText: reference }).filter({ hasText: 'Succeeded' });
      await row.waitFor();
      assert.match((await row.textContent())!, /£32\.50[\s\S]*Succeeded[\s\S]*Visa •••• 4242/);
      await row.getByRole('link').click();
      await dash.page.waitForURL(/\/dashboard\/payments\/pi_/);
      paymentId = new URL(dash.page.url()).pathname.split('/').pop()!;
      await dash.page.locator('html[data-ready="payment"]').waitFor({ state: 'attached' });
      assert.equal(await dash.page.evaluate(() => document.activeElement?.tagName), 'H1', 'focus moves to the new page');
      const timeline = await dash.page.locator('ol.timeline li a').allTextContents();
      assert.deepEqual([timeline[0], timeline.at(-1)], ['Payment of £32.50 created', 'Payment succeeded']);
      assert.deepEqual(dash.problems, []);
    } finally {
      await shop.context.close();
      await dash.context.close();
    }
  });

  it('refunds £5 of it by keyboard alone, and shows the refund and its event', async () => {
    const { page, context, problems } = await openDashboard(stack, { path: `/dashboard/payments/${paymentId}` });
    try {
      await tabTo(page, focusedText(page, 'Refund…'), 'Refund…');
      await page.keyboard.press('Enter');
      await page.locator('dialog[open]').waitFor();
      assert.equal(await page.evaluate(() => document.activeElement?.id), 'refund-amount', 'focus starts in the dialog, on the amount');
      await page.keyboard.type('5');
      await page.keyboard.press('Enter');
      await page.locator('dialog[open]').waitFor({ state: 'detached' });
      const refund = page.locator('tbody tr[data-refund]');
      await refund.waitFor();
      assert.match((await refund.textContent())!, /£5\.00/);
      await page.locator('ol.timeline li', { hasText: 'Refund of £5.00' }).first().waitFor();
      assert.match((await page.locator('.page-head h1').textContent())!, /Partially refunded/);
      // Its event, from the timeline.
      await page.locator('ol.timeline a', { hasText: 'Refund of £5.00 created' }).click();
      await page.locator('html[data-ready="event"]').waitFor({ state: 'attached' });
      const shown = (await page.locator('pre.json').textContent())!;
      const json = JSON.parse(shown);
      assert.equal(json.type, 'refund.created');
      // Copyable: the Copy button puts exactly the JSON shown on the clipboard.
      await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: stack.serviceUrl });
      await page.locator('dash-json button').first().click();
      await page.locator('dash-json button', { hasText: 'Copied' }).first().waitFor();
      assert.equal(await page.evaluate(() => navigator.clipboard.readText()), shown);
      assert.equal(json.data.object.amount, 500);
      assert.equal(json.data.object.payment_intent, paymentId);
      assert.deepEqual(problems, []);
    } finally {
      await context.close();
    }
  });

  it('a webhook endpoint to a local receiver: a failed attempt, the receiver fixed, Retry, success', async () => {
    const hooks = await receiver();
    const { page, context, problems } = await openDashboard(stack, { path: '/dashboard/webhooks' });
    try {
      await page.getByRole('button', { name: 'Add endpoint…' }).click();
      await page.getByLabel('Endpoint URL').fill(hooks.url);
      await page.getByRole('button', { name: 'Add endpoint', exact: true }).click();
      const secret = (await page.locator('#new-secret').textContent())!;
      assert.match(secret, /^whsec_/);
      await page.getByRole('button', { name: 'Open the endpoint' }).click();
      await page.locator('html[data-ready="webhook"]').waitFor({ state: 'attached' });

      // An event after the endpoint was made: its delivery fails (the receiver answers 500).
      await page.getByRole('button', { name: 'Send test event…' }).click();
      await page.getByRole('button', { name: 'Send test event', exact: true }).click();
      const failed = page.locator('tbody tr[data-attempt]', { hasText: '500' }).first();
      await failed.waitFor();
      assert.ok(hooks.received.length >= 1);
      assert.match(String(hooks.received[0]!.headers['webhook-signature']), /^v1,/);

      // The attempt in full: the request sent (the event as its body) and the answer received.
      await failed.getByRole('button', { name: /^View/ }).click();
      const detail = page.locator('tr.attempt-detail');
      const sent = JSON.parse((await detail.getByRole('region', { name: 'Request body' }).textContent())!);
      assert.equal(sent.id, hooks.received[0]!.headers['webhook-id']);
      assert.deepEqual(sent, JSON.parse(hooks.received[0]!.body), 'the body shown is the body sent');
      assert.match((await detail.getByRole('region', { name: 'Answer body' }).textContent())!, /receiver is down/);
      assert.match((await detail.textContent())!, new RegExp(`POST ${hooks.url.replace(/[.]/g, '\\.')}`));

      hooks.status = 200;
      await failed.getByRole('button', { name: /^Retry/ }).click();
      await page.locator('tbody tr[data-attempt]', { hasText: '200' }).first().waitFor();
      assert.equal(hooks.received.at(-1)!.headers['webhook-id'], hooks.received[0]!.headers['webhook-id'], 'the same event, again');
      assert.deepEqual(problems, []);
    } finally {
      await context.close();
      hooks.server.close();
    }
  });

  it('filters: payments by status and by search, events by type', async () => {
    const { page, context, problems } = await openDashboard(stack, { path: '/dashboard/payments' });
    try {
      const filter = async (status: string, q: string) => {
        await page.getByLabel('Status').selectOption(status);
        await page.getByLabel('Search').fill(q);
        await page.getByRole('button', { name: 'Apply' }).click();
      };
      await filter('cancelled', '');
      await page.locator('.empty', { hasText: 'No payments match these filters.' }).waitFor();
      assert.equal(new URL(page.url()).search, '?status=cancelled');
      await filter('succeeded', reference);
      await page.waitForFunction((ref) => {
        const rows = [...document.querySelectorAll('tbody tr')];
        return rows.length === 1 && rows[0]!.textContent!.includes(ref);
      }, reference);

      await goTo(page, '/dashboard/events');
      await page.getByRole('combobox', { name: 'Type' }).selectOption('refund.*');
      await page.waitForFunction(() => {
        const types = [...document.querySelectorAll('tbody tr td:first-child code')].map((code) => code.textContent!);
        return types.length > 0 && types.every((type) => type.startsWith('refund.'));
      });
      assert.equal(new URL(page.url()).searchParams.get('type'), 'refund.*');
      assert.deepEqual(problems, []);
    } finally {
      await context.close();
    }
  });

  it('an endpoint\'s Edit, Roll secret (the new one shown once), Disable and Delete, in the browser', async () => {
    const client = new CpeClient({ licenceKey: stack.service.credentials.licenceKey, baseUrl: stack.serviceUrl });
    const made = await client.createWebhookEndpoint({ url: 'https://shop.example/hooks', enabled_events: ['*'] });
    const { page, context, problems } = await openDashboard(stack, { path: `/dashboard/webhooks/${made.id}` });
    try {
      await page.getByRole('button', { name: 'Edit…' }).click();
      await page.getByLabel('Selected events').check();
      await page.getByLabel('refund.*').check();
      await page.getByRole('button', { name: 'Save', exact: true }).click();
      await page.locator('dl.facts dd', { hasText: 'refund.*' }).waitFor();
      assert.deepEqual((await client.retrieveWebhookEndpoint(made.id)).enabled_events, ['refund.*']);

      await page.getByRole('button', { name: 'Roll secret…' }).click();
      await page.getByRole('button', { name: 'Roll secret', exact: true }).click();
      const rolled = (await page.locator('#rolled-secret').textContent())!;
      assert.match(rolled, /^whsec_/);
      assert.notEqual(rolled, made.secret);
      await page.getByRole('button', { name: 'Done' }).click();
      await page.locator('dialog[open]').waitFor({ state: 'detached' });
      assert.ok(!(await page.content()).includes(rolled), 'the secret is shown once, then gone from the page');

      await page.getByRole('button', { name: 'Disable…' }).click();
      await page.getByRole('button', { name: 'Disable', exact: true }).click();
      await page.getByRole('button', { name: 'Enable…' }).waitFor();
      assert.equal((await client.retrieveWebhookEndpoint(made.id)).status, 'disabled');

      await page.getByRole('button', { name: 'Delete…' }).click();
      await page.getByRole('button', { name: 'Delete endpoint' }).click();
      await page.locator('html[data-ready="webhooks"]').waitFor({ state: 'attached' });
      assert.equal(await page.locator(`tr[data-id="${made.id}"]`).count(), 0);
      await assert.rejects(client.retrieveWebhookEndpoint(made.id), /No such/);
      assert.deepEqual(problems, []);
    } finally {
      await context.close();
    }
  });

  it('a second merchant sees none of the first\'s data; the first\'s ids are "not found"', async () => {
    const second = await stack.service.services.merchants.create({ name: 'Second shop', origins: [] });
    const { page, context } = await openDashboard(stack, { merchantId: second.merchantId, path: '/dashboard/payments' });
    try {
      assert.equal(await page.locator('tbody tr').count(), 0);
      await page.locator('.empty', { hasText: 'No payments yet' }).waitFor();
      for (const path of ['/dashboard/events', '/dashboard/webhooks', '/dashboard/developers']) {
        await goTo(page, path);
        assert.equal(await page.locator('tbody tr').count(), 0, `${path} shows the first merchant's data`);
      }
      await goTo(page, `/dashboard/payments/${paymentId}`);
      assert.equal(await page.locator('h1').textContent(), 'Payment not found');
      const text = await page.evaluate(() => document.body.innerText);
      assert.ok(!text.includes(reference));
    } finally {
      await context.close();
    }
  });

  it('the request log shows the payment\'s requests and holds no card number, security code or key', async () => {
    const { page, context } = await openDashboard(stack, { path: '/dashboard/developers' });
    try {
      const tokenise = page.locator('tbody tr[data-request]', { hasText: 'POST /frames/tokenise' }).first();
      await tokenise.getByRole('button', { name: /^View/ }).click();
      const body = JSON.parse((await page.locator('pre.json').first().textContent())!);
      assert.equal(body.card.number, '[redacted]');
      assert.equal(body.card.cvc, '[redacted]');
      // Every record, page after page, as the dashboard's API hands them out.
      const all = await page.evaluate(async () => {
        const texts: string[] = [];
        for (let after = ''; ; ) {
          const page = await (await fetch(`/dashboard/api/requests?limit=100${after ? `&starting_after=${after}` : ''}`)).json();
          texts.push(JSON.stringify(page.data));
          if (!page.has_more) return texts.join('');
          after = page.data.at(-1).id;
        }
      });
      assert.match(all, /\/v1\/payment_intents\/authorise/, 'the shop\'s backend requests are there');
      for (const secret of [digitsOf(CARDS.visa), CARDS.visa, stack.service.credentials.licenceKey, stack.service.credentials.publicKey.slice(8)])
        assert.ok(!all.includes(secret), `the request log holds ${secret}`);
      assert.doesNotMatch(all, /"cvc":"(?!\[redacted\])/);
    } finally {
      await context.close();
    }
  });
});
