import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { FrameLocator, Page } from 'playwright-core';
import { CARDS, cscFor, digitsOf, watchMerchantPage, assertNoCardDataOnMerchantPage, verifyShown } from './helpers/checkout.ts';
import { startStack, type Stack } from '../../testkit/stack.ts';
import { answerChallenge } from './helpers/frame-click.ts';
import { painted } from './helpers/settle.ts';

/**
 * Flows, wallets and Checkout Context on the demo merchant (another origin than the service), each
 * ending with the backend's verify as the spec's verification rules require.
 */
let stack: Stack;
before(async () => {
  stack = await startStack();
});
after(async () => {
  await stack?.close();
});

const service = async (path: string, json?: unknown) => {
  const response = await fetch(`${stack.serviceUrl}/v1/payment_intents${path}`, {
    method: json ? 'POST' : 'GET',
    headers: { authorization: `Bearer ${stack.service.credentials.licenceKey}`, 'content-type': 'application/json' },
    ...(json ? { body: JSON.stringify(json) } : {}),
  });
  return response.json();
};
const verify = (id: string) => service('/verify', { payment_intent_id: id, unmask_fields: [] });

async function open(path: string): Promise<{ page: Page; close(): Promise<void>; problems: string[] }> {
  const { page, context, problems } = await stack.newPage();
  await watchMerchantPage(page);
  await page.goto(`${stack.demoUrl}${path}`);
  return { page, problems, close: () => context.close() };
}

/** The Flow's frame (the card form with its button) inside the page's `tag`. */
const flowFrame = (page: Page, tag = 'cpe-payment-flow') => page.frameLocator(`${tag} iframe`).first();

async function typeInto(frame: FrameLocator, number: string) {
  await frame.getByLabel('Card number').pressSequentially(digitsOf(number));
  await frame.getByLabel('Expiry date').pressSequentially('1230');
  await frame.getByLabel('Security code').pressSequentially(cscFor(number));
  await frame.getByLabel('Name on card').fill('Ada Lovelace');
}

/** The intent of the page's first element, as the SDK knows it. */
const intentOfPage = (page: Page, tag: string) =>
  page.evaluate(async (t) => {
    const el = document.querySelector(t) as HTMLElement & { controller?: { getPaymentIntentId(): Promise<string> } };
    return (await el.controller!.getPaymentIntentId()) as string;
  }, tag);

describe('payment flow (plain HTML page: the SDK, <cpe-elements> and <cpe-payment-flow>, no script of its own)', () => {
  it('paid: the button reads Pay £12.34; success shows; the backend verifies', async () => {
    const { page, close, problems } = await open('/components/flow');
    // The page's only script is its event log and verify display: block it, the payment must not need it.
    await page.route('**/{log,flow-verify}.js', (route) => route.abort());
    await page.reload();
    try {
      const frame = flowFrame(page);
      const pay = frame.getByRole('button', { name: 'Pay £12.34' });
      await pay.waitFor();
      await typeInto(frame, CARDS.visa);
      await pay.click();
      await frame.getByText('Payment complete.').waitFor();
      const id = await intentOfPage(page, 'cpe-payment-flow');
      const result = await verify(id);
      assert.equal(result.status, 'success');
      assert.equal(result.auth.amount, 1234);
      await assertNoCardDataOnMerchantPage(page, CARDS.visa);
      assert.deepEqual(problems.filter((p) => !/(log|flow-verify)\.js|ERR_FAILED/.test(p)), []);
    } finally {
      await close();
    }
  });

  it('declined, then Try again: paid on the same intent, with a fresh 3-D Secure transaction', async () => {
    const { page, close } = await open('/components/flow');
    try {
      const frame = flowFrame(page);
      await frame.getByRole('button', { name: 'Pay £12.34' }).waitFor();
      await typeInto(frame, CARDS.declined);
      await frame.getByRole('button', { name: 'Pay £12.34' }).click();
      await frame.getByRole('button', { name: 'Try again' }).click();
      await typeInto(frame, CARDS.visa);
      await frame.getByRole('button', { name: 'Pay £12.34' }).click();
      await frame.getByText('Payment complete.').waitFor();
      const id = await intentOfPage(page, 'cpe-payment-flow');
      const intent = await service(`/${id}`);
      assert.deepEqual(
        intent.attempts.map((a: { outcome: string }) => a.outcome),
        ['declined', 'authorised'],
      );
      assert.notEqual(intent.attempts[0].three_ds_transaction_id, intent.attempts[1].three_ds_transaction_id);
      assert.equal((await verify(id)).status, 'success');
    } finally {
      await close();
    }
  });

  it('through a 3-D Secure challenge', async () => {
    const { page, close } = await open('/components/flow');
    try {
      const frame = flowFrame(page);
      await frame.getByRole('button', { name: 'Pay £12.34' }).waitFor();
      await typeInto(frame, CARDS.challenge);
      await frame.getByRole('button', { name: 'Pay £12.34' }).click();
      await answerChallenge(page);
      await frame.getByText('Payment complete.').waitFor();
      const result = await verify(await intentOfPage(page, 'cpe-payment-flow'));
      assert.equal(result.status, 'success');
      assert.equal(result.auth.three_ds, 'challenge_completed');
    } finally {
      await close();
    }
  });

  it('a failed attach stops before confirm and shows why', async () => {
    const { page, close } = await open('/components/flow');
    try {
      const frame = flowFrame(page);
      await frame.getByRole('button', { name: 'Pay £12.34' }).waitFor();
      await typeInto(frame, CARDS.attachFail);
      await frame.getByRole('button', { name: 'Pay £12.34' }).click();
      // The reason, in the Flow's language, said once (the button below says what to do).
      await frame.getByText('This card cannot be used. Use another card.', { exact: true }).waitFor();
      const events = await page.evaluate(() => (window as unknown as { __cpeEvents: string[] }).__cpeEvents);
      assert.ok(!events.includes('cpe:confirm:start'), `no confirm after a failed attach: ${events.join(', ')}`);
      const intent = await service(`/${await intentOfPage(page, 'cpe-payment-flow')}`);
      assert.equal(intent.status, 'requires_payment_method');
    } finally {
      await close();
    }
  });
});

describe('verify flow', () => {
  it('Verify Card checks the card without taking a payment; the backend verify says so', async () => {
    const { page, close } = await open('/components/verify');
    try {
      const frame = flowFrame(page, 'cpe-verify-flow');
      const button = frame.getByRole('button', { name: 'Verify Card' });
      await button.waitFor();
      await typeInto(frame, CARDS.visa);
      await button.click();
      await frame.getByText('Card verified.').waitFor();
      const result = await verify(await intentOfPage(page, 'cpe-verify-flow'));
      assert.equal(result.status, 'success');
      assert.equal(result.auth.amount, 0);
      assert.equal(result.auth.amount_captured, 0);
      assert.equal(result.auth.purpose, 'verify');
    } finally {
      await close();
    }
  });
});

describe('several flows on one page', () => {
  it('two Flows with their own identifiers mount side by side on one controller and the first pays; a duplicate identifier is an SdkError', async () => {
    const { page, close } = await open('/components/html');
    try {
      // A string: functions defined inside an evaluated function would need tsx's `__name` helper.
      const outcome = (await page.evaluate(`(async () => {
        const { createElements } = await import(${JSON.stringify(stack.serviceUrl)} + '/sdk/cpe.js');
        const elements = await createElements({
          pubKey: JSON.parse(document.getElementById('cpe-config').textContent).publicKey,
          createServerIntent: () => fetch('/api/payment-intents', { method: 'POST' }).then((r) => r.json()),
        });
        for (const id of ['one', 'two']) {
          const div = document.createElement('div');
          div.id = 'flow-' + id;
          document.querySelector('main section').append(div);
        }
        const one = elements.paymentFlow({ element: '#flow-one', identifier: 'flow_one' });
        const two = elements.paymentFlow({ element: '#flow-two', identifier: 'flow_two' });
        let duplicate = '';
        try {
          elements.paymentFlow({ element: '#flow-two', identifier: 'flow_one' });
        } catch (error) {
          duplicate = error.name + ': ' + error.message;
        }
        await Promise.all([one.init(), two.init()]);
        await Promise.all([one.awaitReady(), two.awaitReady()]);
        return { duplicate, frames: document.querySelectorAll('cpe-payment-flow').length };
      })()`)) as { duplicate: string; frames: number };
      assert.equal(outcome.frames, 2);
      assert.match(outcome.duplicate, /^SdkError: .*flow_one/);
      const first = page.frameLocator('#flow-one iframe');
      await typeInto(first, CARDS.visa);
      await first.getByRole('button', { name: 'Pay £12.34' }).click();
      await first.getByText('Payment complete.').waitFor();
    } finally {
      await close();
    }
  });
});

/** Presses a wallet button (in its frame), then answers the wallet test sheet in the modal dialog. */
async function useWallet(page: Page, mount: string, answer: 'visa' | 'declined' | 'cancel') {
  const button = page.frameLocator(`${mount} iframe`).first().getByRole('button');
  await button.click();
  const sheet = page.frameLocator('dialog iframe');
  if (answer === 'cancel') {
    await sheet.getByRole('button', { name: 'Cancel' }).click();
    return;
  }
  await sheet.getByLabel(answer === 'visa' ? /4242/ : /0002/).check();
  await sheet.getByRole('button', { name: 'Approve' }).click();
}

describe('wallets (test keys: the service wallet test sheet)', () => {
  for (const [wallet, mount, statusId] of [
    ['A', '#wallet-a', '#wallet-a-status'],
    ['B', '#wallet-b', '#wallet-b-status'],
  ] as const) {
    it(`wallet ${wallet}: approved, then verified by the backend`, async () => {
      const { page, close, problems } = await open('/components/wallets');
      try {
        await useWallet(page, mount, 'visa');
        await page.locator(statusId, { hasText: `Paid with wallet ${wallet}.` }).waitFor();
        const shown = JSON.parse((await page.locator('#verify').textContent())!);
        assert.equal(shown.status, 'success');
        assert.equal(shown.fulfil, true);
        assert.deepEqual(problems, []);
      } finally {
        await close();
      }
    });

    it(`wallet ${wallet}: cancelled: nothing is paid`, async () => {
      const { page, close } = await open('/components/wallets');
      try {
        await useWallet(page, mount, 'cancel');
        // The page says so (wallet A's cpe:wallet:cancel as much as wallet B's onCancel).
        await page.locator(statusId, { hasText: 'Cancelled: nothing was paid.' }).waitFor();
        assert.equal(await page.evaluate(() => !!document.querySelector('cpe-wallet-a, cpe-wallet-b')?.shadowRoot?.querySelector('dialog[open]')), false);
        assert.equal(await page.locator('#verify').textContent(), '');
      } finally {
        await close();
      }
    });

    it(`wallet ${wallet}: declined: the page lets the shopper try again`, async () => {
      const { page, close } = await open('/components/wallets');
      try {
        await useWallet(page, mount, 'declined');
        await page.locator(statusId, { hasText: 'Declined' }).waitFor();
        await useWallet(page, mount, 'visa');
        await page.locator(statusId, { hasText: `Paid with wallet ${wallet}.` }).waitFor();
      } finally {
        await close();
      }
    });
  }

  it('the sheet fits its content without moving its top: Approve and Cancel stay where the shopper first saw them', async () => {
    const { page, close } = await open('/components/wallets');
    try {
      const button = page.frameLocator('#wallet-a iframe').first().getByRole('button');
      await button.waitFor();
      // Every frame, where the sheet's frame is on the page (its top and bottom).
      await page.evaluate(`(() => {
        const boxes = (window.sheetBoxes = []);
        (function tick() {
          const frame = document.querySelector('cpe-wallet-a').shadowRoot.querySelector('dialog iframe');
          const box = frame && frame.getBoundingClientRect();
          const last = boxes.at(-1);
          if (box && (!last || last.top !== box.top || last.bottom !== box.bottom)) boxes.push({ top: box.top, bottom: box.bottom });
          requestAnimationFrame(tick);
        })();
      })()`);
      await button.click();
      // Approve arms after the sheet has been fully visible for half a second: it has fitted its content by then.
      await page.frameLocator('dialog iframe').locator('button.approve:enabled').waitFor();
      await painted(page);
      const boxes = (await page.evaluate('window.sheetBoxes')) as { top: number; bottom: number }[];
      assert.ok(boxes.length >= 2, `the sheet fitted its content: ${JSON.stringify(boxes)}`);
      assert.deepEqual(new Set(boxes.map((b) => b.top)).size, 1, `the sheet's top moved: ${JSON.stringify(boxes)}`);
    } finally {
      await close();
    }
  });
});

describe('Checkout Context', () => {
  it("a declined card: the page says it in the element's words (what happened, then what to do), not a status", async () => {
    const { page, close } = await open('/components/checkout-context');
    try {
      await page.waitForFunction(() => document.body.dataset.ready === 'true');
      const frame = page.frameLocator('#cc-flow iframe').first();
      await frame.getByRole('button', { name: 'Pay £12.34' }).waitFor();
      await typeInto(frame, CARDS.declined);
      await frame.getByRole('button', { name: 'Pay £12.34' }).click();
      await page.locator('#cc-status', { hasText: 'Your card was declined. Use another card.' }).waitFor();
      assert.equal(await page.locator('#cc-status').textContent(), 'Your card was declined. Use another card.');
    } finally {
      await close();
    }
  });

  it('buttons are live before any intent exists; the commit exchanges the basket and the Flow pays on that intent', async () => {
    const { page, close, problems } = await open('/components/checkout-context');
    try {
      const requests: string[] = [];
      page.on('request', (r) => requests.push(new URL(r.url()).pathname));
      await page.waitForFunction(() => document.body.dataset.ready === 'true');
      const frame = page.frameLocator('#cc-flow iframe').first();
      await frame.getByRole('button', { name: 'Pay £12.34' }).waitFor();
      assert.equal(await page.frameLocator('#cc-wallet-a iframe').first().getByRole('button').count(), 1, 'wallet A is visible before any intent');
      assert.ok(!requests.includes('/api/cpe/exchange') && !requests.includes('/api/payment-intents'), 'no intent yet');
      await typeInto(frame, CARDS.visa);
      await frame.getByRole('button', { name: 'Pay £12.34' }).click();
      await frame.getByText('Payment complete.').waitFor();
      assert.ok(requests.includes('/api/cpe/exchange'), 'the context was exchanged at commit');
      const id = await page.evaluate(async () => ((await (document.querySelector('cpe-payment-flow') as any).controller.getPaymentIntentId()) as string));
      const result = await verify(id);
      assert.equal(result.status, 'success');
      assert.match(result.auth.identifier, /^basket-42-/);
      // The page shows what happened: the status, and the backend's verify in its panel.
      await page.locator('#cc-status', { hasText: 'Paid with the card.' }).waitFor();
      assert.equal((await verifyShown(page))?.status, 'success');
      assert.deepEqual(problems, []);

      // Wallet A pressed now, on the paid intent: no sheet (its approval would be refused with a 409), the page says it is paid.
      const refused: string[] = [];
      page.on('response', (r) => r.status() >= 400 && refused.push(`${r.status()} ${r.url()}`));
      await page.frameLocator('#cc-wallet-a iframe').first().getByRole('button').click();
      await page.locator('#cc-status', { hasText: 'Already paid: nothing more to pay.' }).waitFor();
      assert.equal(await page.evaluate(() => !!document.querySelector('cpe-wallet-a')?.shadowRoot?.querySelector('dialog[open]')), false, 'no sheet opened');
      assert.deepEqual(refused, []);
      assert.deepEqual(problems, []);
    } finally {
      await close();
    }
  });
});
