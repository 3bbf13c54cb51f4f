import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { CARDS, assertNoCardDataOnMerchantPage, cpeEvents, openCheckout, pay, typeCard, verifyShown, type CardName } from './helpers/checkout.ts';
import { startStack, type Stack } from '../../testkit/stack.ts';
import { waitFor } from '../../testkit/wait.ts';

/**
 * A shopper pays on the demo merchant (another origin than the service) with every test card of the
 * contract, through both transports, in `<cpe-card>` and `<cpe-card-fields>`; the backend verifies.
 */
let stack: Stack;
before(async () => {
  stack = await startStack();
});
after(async () => {
  await stack?.close();
});

const SUCCESS_EVENTS = ['cpe:ready', 'cpe:processing:start', 'cpe:processing:end', 'cpe:attach:start', 'cpe:attach:end', 'cpe:confirm:start', 'cpe:confirm:end', 'cpe:authorise:start', 'cpe:authorise:end'];
/** A refused operation emits cpe:error inside it, before its :end event. */
const DECLINED_EVENTS = [...SUCCESS_EVENTS.slice(0, -1), 'cpe:error', 'cpe:authorise:end'];
const CHALLENGE_EVENTS = ['cpe:ready', 'cpe:processing:start', 'cpe:processing:end', 'cpe:attach:start', 'cpe:attach:end', 'cpe:confirm:start', 'cpe:challenge:start', 'cpe:challenge:end', 'cpe:confirm:end', 'cpe:authorise:start', 'cpe:authorise:end'];

/** What the shopper sees and what the backend records for each card (the contract's table). */
const OUTCOMES: Record<CardName, { state: 'success' | 'failure'; text: RegExp; intent: string; challenge?: 'complete' | 'fail'; events?: string[] }> = {
  visa: { state: 'success', text: /Paid: visa ending 4242/, intent: 'succeeded', events: SUCCESS_EVENTS },
  mastercard: { state: 'success', text: /Paid: mastercard ending 4444/, intent: 'succeeded', events: SUCCESS_EVENTS },
  amex: { state: 'success', text: /Paid: amex ending 0005/, intent: 'succeeded', events: SUCCESS_EVENTS },
  challenge: { state: 'success', text: /Paid: visa ending 3220/, intent: 'succeeded', challenge: 'complete', events: CHALLENGE_EVENTS },
  declined: { state: 'failure', text: /declined/i, intent: 'failed', events: DECLINED_EVENTS },
  insufficient: { state: 'failure', text: /insufficient funds/i, intent: 'failed', events: DECLINED_EVENTS },
  incorrectCvc: { state: 'failure', text: /security code is incorrect/i, intent: 'failed', events: DECLINED_EVENTS },
  // No confirm after a failed attach (spec, States rule 1).
  attachFail: { state: 'failure', text: /refused when attached/i, intent: 'requires_payment_method', events: ['cpe:ready', 'cpe:processing:start', 'cpe:processing:end', 'cpe:attach:start', 'cpe:error', 'cpe:attach:end'] },
  attachRetriable: { state: 'failure', text: /try again/i, intent: 'requires_payment_method' },
};

const intentOf = async (id: string) =>
  (await fetch(`${stack.serviceUrl}/v1/payment_intents/${id}`, { headers: { authorization: `Bearer ${stack.service.credentials.licenceKey}` } })).json();

for (const mode of ['direct', 'middleware'] as const) {
  describe(`<cpe-card>, ${mode} mode: every test card`, () => {
    for (const [name, expected] of Object.entries(OUTCOMES) as [CardName, (typeof OUTCOMES)[CardName]][]) {
      it(`${name} (${CARDS[name]}): ${expected.state}, intent ${expected.intent}`, async () => {
        const { page, context, problems } = await openCheckout(stack, '/components/card', { mode });
        try {
          const id = await page.evaluate(() => document.body.dataset.intent!);
          // The browser session started: the intent waits for a card (contract's typical order).
          // Nothing announces it to this test: the service's state is asked until it says so.
          await waitFor('the intent waits for a card once the frame has started the session', async () => (await intentOf(id)).status === 'requires_payment_method');
          await typeCard(page, CARDS[name]);
          const outcome = await pay(page, expected.challenge);
          assert.equal(outcome.state, expected.state, outcome.text);
          assert.match(outcome.text, expected.text);
          const intent = await intentOf(id);
          assert.equal(intent.status, expected.intent);
          if (expected.state === 'success') {
            const verify = await verifyShown(page);
            assert.equal(verify?.status, 'success');
            assert.equal(verify?.fulfil, true);
            assert.equal(verify?.auth.paymentIntentId, id);
          }
          if (expected.events) assert.deepEqual(await cpeEvents(page), expected.events);
          await assertNoCardDataOnMerchantPage(page, CARDS[name]);
          assert.deepEqual(problems, [], 'no page errors, console errors or CSP violations');
        } finally {
          await context.close();
        }
      });
    }
  });
}

describe('attempts on one intent', () => {
  it('a declined card, then another card: paid on the same intent, two attempts', async () => {
    const { page, context, problems } = await openCheckout(stack, '/components/card');
    try {
      const id = await page.evaluate(() => document.body.dataset.intent!);
      await typeCard(page, CARDS.declined);
      assert.equal((await pay(page)).state, 'failure');
      // The page resets the element after a failure; the shopper types another card.
      // (The page shows the failure, then resets: the reset is awaited before typing, or it wipes what is typed.)
      const number = page.frameLocator('iframe[title="Card payment"]').getByLabel('Card number');
      await waitFor('the card number emptied by the page\'s reset', async () => (await number.inputValue()) === '');
      await typeCard(page, CARDS.visa);
      const outcome = await pay(page);
      assert.equal(outcome.state, 'success', outcome.text);
      const intent = await intentOf(id);
      assert.equal(intent.status, 'succeeded');
      assert.deepEqual(
        intent.attempts.map((a: { outcome: string }) => a.outcome),
        ['declined', 'authorised'],
      );
      assert.notEqual(intent.attempts[0].three_ds_transaction_id, intent.attempts[1].three_ds_transaction_id);
      assert.deepEqual(problems, []);
    } finally {
      await context.close();
    }
  });

  it('the 3-D Secure challenge failed: the intent is failed and the page lets the shopper retry', async () => {
    const { page, context } = await openCheckout(stack, '/components/card');
    try {
      const id = await page.evaluate(() => document.body.dataset.intent!);
      await typeCard(page, CARDS.challenge);
      const outcome = await pay(page, 'fail');
      assert.equal(outcome.state, 'failure');
      assert.equal((await intentOf(id)).status, 'failed');
      await typeCard(page, CARDS.mastercard);
      assert.equal((await pay(page)).state, 'success');
    } finally {
      await context.close();
    }
  });

  it('a token attached twice is refused, and no confirm follows a failed attach', async () => {
    const { page, context } = await openCheckout(stack, '/components/card');
    try {
      await typeCard(page, CARDS.visa);
      const result = await page.evaluate(async () => {
        const { element } = (window as unknown as { demo: { element: any } }).demo;
        const errors: string[] = [];
        element.addEventListener('cpe:error', (e: CustomEvent) => errors.push(e.detail.message));
        const token = (await element.tokenise()).data.cp_card_token as string;
        const first = await element.attach({ token });
        const second = await element.attach({ token }).then(
          () => 'resolved',
          (error: Error) => error.message,
        );
        return { first: first.status, second, errors, tokenShape: /^tok_/.test(token) };
      });
      assert.equal(result.first, 'requires_customer_confirmation');
      assert.match(result.second, /already used/i);
      assert.ok(result.errors.some((m) => /already used/i.test(m)), 'cpe:error says the token was used');
      assert.ok(result.tokenShape);

      const refused = await page.evaluate(async () => {
        const { element } = (window as unknown as { demo: { element: any } }).demo;
        await element.reset();
        return 'ok';
      });
      assert.equal(refused, 'ok');
    } finally {
      await context.close();
    }
  });
});

for (const mode of ['direct', 'middleware'] as const) {
  describe(`<cpe-card-fields>, ${mode} mode`, () => {
    for (const name of ['visa', 'challenge', 'declined'] as const) {
      it(`${name}: ${OUTCOMES[name].state}`, async () => {
        const { page, context, problems } = await openCheckout(stack, '/components/fields', { mode });
        try {
          assert.equal(await page.locator('cpe-card-fields iframe, #card-fields iframe').count(), 4, 'four field frames');
          await typeCard(page, CARDS[name], { split: true });
          const outcome = await pay(page, OUTCOMES[name].challenge);
          assert.equal(outcome.state, OUTCOMES[name].state, outcome.text);
          assert.match(outcome.text, OUTCOMES[name].text);
          await assertNoCardDataOnMerchantPage(page, CARDS[name]);
          assert.deepEqual(problems, []);
        } finally {
          await context.close();
        }
      });
    }
  });
}
