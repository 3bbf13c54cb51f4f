import assert from 'node:assert/strict';
import { waitFor } from '../../testkit/wait.ts';
import { after, before, describe, it } from 'node:test';
import type { FrameLocator, Page } from 'playwright-core';
import { CARDS, digitsOf } from './helpers/checkout.ts';
import { cardFrame, checkout, fillBasket, openShop, payInShop, typeShopCard } from './helpers/shop.ts';
import { startStack, type Stack } from '../../testkit/stack.ts';
import { scaled } from '../../testkit/time.ts';
import { answerChallenge, clickOrPress, dialogClosed, dialogOpen, pressEscape } from './helpers/frame-click.ts';

/**
 * Issue 24, items 1 and 3: what a shopper keeps after a payment did not go through. Escape or ×
 * on the 3-D Secure challenge is a cancel: a plain sentence on the page, every field kept, the focus
 * back on the card element. A decline keeps the expiry and the name, clears only the field that must
 * change (the number for a declined card, the security code for a wrong one) and focuses it. The
 * Flow's Try again does the same in its own frame.
 */
let stack: Stack;
before(async () => {
  stack = await startStack();
});
after(async () => {
  await stack?.close();
});

/** The values the shopper sees in the card form (formatted as displayed), by autocomplete name. */
async function fieldValues(frame: FrameLocator): Promise<Record<string, string>> {
  const inputs = frame.locator('input.in');
  await inputs.first().waitFor();
  return Object.fromEntries(await inputs.evaluateAll((list) => list.map((i) => [(i as HTMLInputElement).autocomplete, (i as HTMLInputElement).value])));
}

/** Where the focus is: the host element of the page, and (inside its frame) the input's autocomplete. */
async function focusOf(page: Page): Promise<{ host: string; field?: string; button?: string }> {
  const host = await page.evaluate(() => {
    let active = document.activeElement;
    const path: string[] = [];
    while (active) {
      path.push(active.localName);
      active = active.shadowRoot?.activeElement ?? null;
    }
    return path.join('>');
  });
  for (const frame of page.frames().filter((f) => /\/frames\/(card-form|flow|field|payment)\//.test(f.url()))) {
    const inner = await frame.evaluate(() => {
      if (!document.hasFocus()) return undefined;
      let active = document.activeElement;
      while (active?.shadowRoot?.activeElement) active = active.shadowRoot.activeElement;
      return active ? { field: active.getAttribute('autocomplete') ?? undefined, button: active.localName === 'button' ? (active.textContent ?? '').trim() : undefined } : undefined;
    });
    if (inner) return { host, ...inner };
  }
  return { host };
}

/**
 * Waits until the focus is where a recovery puts it: the SDK asks the frame to focus a field, and
 * focus into a frame of another site moves through the browser process, after the page's own update
 * (a fresh-clone run read it once, at the failure status, before it had moved). Fails naming where it was.
 */
async function focusMovesTo(page: Page, want: { field?: string; host?: RegExp }): Promise<{ host: string; field?: string; button?: string }> {
  let last: Awaited<ReturnType<typeof focusOf>> | undefined;
  return waitFor(`the focus on ${JSON.stringify({ field: want.field, host: want.host?.source })}`, async () => {
    last = await focusOf(page);
    return (want.field === undefined || last.field === want.field) && (!want.host || want.host.test(last.host)) && last;
  }, { context: () => `the focus was ${JSON.stringify(last)}` });
}

const FULL = { 'cc-number': '4000 0000 0000 3220', 'cc-exp': '12 / 30', 'cc-csc': '739', 'cc-name': 'Ada Lovelace' };

describe('a payment that did not go through keeps what the shopper typed', { timeout: scaled(600_000) }, () => {
  for (const how of ['Escape', '×'] as const) {
    it(`card: ${how} on the 3-D Secure challenge is a cancel: a plain sentence, every field kept, focus on the card`, async () => {
      const { page, context, problems } = await openShop(stack);
      try {
        await fillBasket(page);
        await checkout(page, stack, 'card');
        await typeShopCard(page, CARDS.challenge);
        await clickOrPress(page.locator('#pay:not([disabled])'), dialogOpen(page));
        await page.frameLocator('dialog iframe').getByRole('button', { name: 'Complete' }).waitFor();
        if (how === 'Escape') await pressEscape(page, dialogClosed(page));
        else await page.locator('dialog button.close').click();
        await dialogClosed(page)(10_000);
        const status = page.locator('#status[data-state="cancelled"]');
        await status.waitFor();
        const text = (await status.textContent())!;
        assert.doesNotMatch(text, /requires_|3-D Secure:|\{|\}|undefined/, `a plain sentence: ${text}`);
        assert.match(text, /nothing was paid/i);
        assert.deepEqual(await fieldValues(cardFrame(page)), FULL, 'every field is kept');
        // The focus is back in the card element, on the number.
        await focusMovesTo(page, { host: /^cpe-card>iframe$/, field: 'cc-number' });
        // And it pays on the next press, with nothing retyped.
        await clickOrPress(page.locator('#pay:not([disabled])'), dialogOpen(page));
        await answerChallenge(page);
        await page.waitForURL(/\/orders\/ORD-/);
        assert.deepEqual(problems, []);
      } finally {
        await context.close();
      }
    });
  }

  it('card: a declined card keeps the expiry, the code and the name, clears the number and focuses it, in plain words', async () => {
    const { page, context, problems } = await openShop(stack);
    try {
      await fillBasket(page);
      await checkout(page, stack, 'card');
      await typeShopCard(page, CARDS.declined);
      await payInShop(page);
      const status = page.locator('#status[data-state="failure"]');
      await status.waitFor();
      const text = (await status.textContent())!;
      assert.doesNotMatch(text, /requires_|3-D Secure:|\{|\}|undefined|  /, `a plain sentence: ${text}`);
      assert.match(text, /declined/i);
      await page.waitForFunction(() => (document.querySelector('#pay') as HTMLButtonElement).disabled);
      assert.deepEqual(await fieldValues(cardFrame(page)), { ...FULL, 'cc-number': '' }, 'only the number is cleared');
      // The number, to fix, has the focus.
      await focusMovesTo(page, { field: 'cc-number' });
      // Pay waits for a complete form again: no press over an empty number.
      assert.equal(await page.locator('#pay').isDisabled(), true);
      await cardFrame(page).getByLabel('Card number').pressSequentially(digitsOf(CARDS.visa));
      await payInShop(page);
      await page.waitForURL(/\/orders\/ORD-/);
      assert.deepEqual(problems, []);
    } finally {
      await context.close();
    }
  });

  it('card: a wrong security code clears only the code and focuses it', async () => {
    const { page, context } = await openShop(stack);
    try {
      await fillBasket(page);
      await checkout(page, stack, 'card');
      await typeShopCard(page, CARDS.incorrectCvc);
      await payInShop(page);
      await page.locator('#status[data-state="failure"]').waitFor();
      assert.match((await page.locator('#status').textContent())!, /security code/i);
      assert.deepEqual(await fieldValues(cardFrame(page)), { 'cc-number': '4000 0000 0000 0101', 'cc-exp': '12 / 30', 'cc-csc': '', 'cc-name': 'Ada Lovelace' });
      await focusMovesTo(page, { field: 'cc-csc' });
    } finally {
      await context.close();
    }
  });

  it('card fields: a decline clears the number frame only and focuses it', async () => {
    const { page, context } = await openShop(stack);
    try {
      await fillBasket(page);
      await checkout(page, stack, 'fields');
      await typeShopCard(page, CARDS.insufficient, true);
      await payInShop(page);
      await page.locator('#status[data-state="failure"]').waitFor();
      assert.match((await page.locator('#status').textContent())!, /funds/i);
      const value = (label: string) => cardFrame(page, label).getByLabel(label).inputValue();
      assert.equal(await value('Card number'), '');
      assert.equal(await value('Expiry date'), '12 / 30');
      assert.equal(await value('Security code'), '739');
      assert.equal(await value('Name on card'), 'Ada Lovelace');
      await focusMovesTo(page, { field: 'cc-number' });
    } finally {
      await context.close();
    }
  });

  it('Flow: Escape on the challenge goes back to the form with every field kept; Try again after a decline keeps expiry and name', async () => {
    const { page, context, problems } = await openShop(stack);
    try {
      await fillBasket(page);
      await checkout(page, stack, 'flow');
      const flow = cardFrame(page);
      await typeShopCard(page, CARDS.challenge);
      await clickOrPress(flow.getByRole('button', { name: /Pay/ }), dialogOpen(page));
      await page.frameLocator('dialog iframe').getByRole('button', { name: 'Complete' }).waitFor();
      await pressEscape(page, dialogClosed(page));
      // The form again, nothing cleared, and a sentence saying what happened.
      await flow.getByRole('status').filter({ hasText: /nothing was paid/i }).waitFor();
      assert.deepEqual(await fieldValues(flow), FULL);
      await focusMovesTo(page, { host: /^cpe-payment-flow>iframe$/ });
      // A declined card: Try again clears the number only.
      const number = flow.getByLabel('Card number');
      await number.fill('');
      await number.pressSequentially(digitsOf(CARDS.declined));
      await flow.getByRole('button', { name: /Pay/ }).click();
      await flow.getByRole('button', { name: 'Try again' }).click();
      // The form comes back once the element has cleared the number and focused it (its answer to the click).
      await waitFor('the number cleared and focused by Try again', async () => (await number.inputValue()) === '' && (await focusOf(page)).field === 'cc-number');
      assert.deepEqual(await fieldValues(flow), { ...FULL, 'cc-number': '' });
      await number.pressSequentially(digitsOf(CARDS.visa));
      await flow.getByRole('button', { name: /Pay/ }).click();
      await page.waitForURL(/\/orders\/ORD-/);
      assert.deepEqual(problems, []);
    } finally {
      await context.close();
    }
  });
});

