import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Page } from 'playwright-core';
import { CARDS } from '../e2e/helpers/checkout.ts';
import { flowPage, payWithFlow, startMerchantSite } from './helpers/merchant-site.ts';
import { startStack, type Stack } from '../../testkit/stack.ts';
import { scaled } from '../../testkit/time.ts';

/**
 * Findings 4 and 5 of issue 12: the wallet sheet posted its `{token}` with window.postMessage (a plain
 * `message` listener on the merchant page read it), and it showed what its address claimed and paid
 * on any click, even through a sheet the page had made invisible.
 */
let stack: Stack;
before(async () => {
  stack = await startStack();
});
after(async () => {
  await stack?.close();
});

/** A plain `message` listener on the merchant page, as any script of it can add. */
const LISTEN = `(() => {
  if (window !== window.top) return;
  window.__heard = [];
  addEventListener('message', (event) => { try { window.__heard.push(JSON.stringify(event.data)); } catch { window.__heard.push(String(event.data)); } }, true);
})();`;
const heard = (page: Page) => page.evaluate(() => (window as unknown as { __heard: string[] }).__heard);

/** Wallet tokens the service minted (card tokens marked as a wallet's). */
const walletTokens = async () => (await stack.service.services.store.collection<{ id: string; card: { wallet?: string } }>('card_tokens').all()).filter((t) => t.card.wallet).length;

function assertNothingSensitive(messages: string[], what: string): void {
  assert.ok(messages.length > 0, `${what}: the listener works`);
  for (const text of messages) {
    for (const secret of ['tok_', 'cpe_st_', 'sessionToken', '4242424242424242', '4000000000003220', 'challenge=', 'transaction_id', 'last4'])
      assert.ok(!text.includes(secret), `${what}: the merchant page's message listener read ${secret}: ${text.slice(0, 200)}`);
  }
}

async function openWallets(page: Page): Promise<void> {
  await page.goto(`${stack.demoUrl}/components/wallets`);
  await page.frameLocator('#wallet-a iframe').first().getByRole('button').waitFor();
}

describe('no token, card detail or 3-D Secure artefact on a window', { timeout: scaled(600_000) }, () => {
  it('a whole wallet payment', async () => {
    const { page, context } = await stack.newPage();
    try {
      await context.addInitScript(LISTEN);
      await openWallets(page);
      await page.frameLocator('#wallet-a iframe').first().getByRole('button').click();
      const sheet = page.frameLocator('dialog iframe');
      await sheet.getByLabel(/4242/).check();
      await sheet.getByRole('button', { name: 'Approve' }).click();
      await page.locator('#wallet-a-status', { hasText: 'Paid with wallet A.' }).waitFor();
      assertNothingSensitive(await heard(page), 'wallet');
    } finally {
      await context.close();
    }
  });

  it('a card payment through the 3-D Secure challenge', async () => {
    // A merchant site of its own (not the demo's shared shop state): a Flow, paid through the challenge.
    const shop = await startMerchantSite(stack.service);
    const opened = await stack.newPage();
    try {
      shop.page('/checkout', flowPage(shop.credentials.publicKey, `<script type="module" src="${stack.serviceUrl}/sdk/cpe.js"></script>`));
      await opened.context.addInitScript(LISTEN);
      await opened.page.goto(`${shop.url}/checkout`);
      await payWithFlow(opened.page, CARDS.challenge);
      assert.equal((await shop.client.verify({ payment_intent_id: shop.intents.at(-1)!, unmask_fields: [] })).auth?.three_ds, 'challenge_completed');
      assertNothingSensitive(await heard(opened.page), '3-D Secure');
    } finally {
      await opened.context.close();
      await shop.close();
    }
  });
});

describe('the wallet sheet shows what the service says, and pays only on a deliberate click', { timeout: scaled(600_000) }, () => {
  it("shows the intent's amount and the merchant's registered name, not what its address claims", async () => {
    const { page, context } = await stack.newPage();
    try {
      await openWallets(page);
      // A page script rewrites what the sheet would show before the shopper opens it.
      await page.evaluate(() => {
        const el = document.querySelector('#wallet-a cpe-wallet-a, cpe-wallet-a') as HTMLElement & { total?: unknown };
        el.setAttribute('merchant-name', 'Charity Donations');
      });
      await page.frameLocator('#wallet-a iframe').first().getByRole('button').click();
      const sheet = page.frameLocator('dialog iframe');
      const { name } = (await stack.service.services.merchants.get(stack.service.credentials.merchantId))!;
      await sheet.getByRole('heading', { name: new RegExp(name) }).first().waitFor();
      await sheet.getByText('£12.34').waitFor();
      assert.equal(await sheet.getByText('Charity Donations').count(), 0);
    } finally {
      await context.close();
    }
  });

  /** Opens the sheet with the page's clock paused and returns the page coordinates of its Approve button (from the page's own view). */
  async function openSheet(page: Page, hide: 'decoy' | 'opacity'): Promise<{ x: number; y: number }> {
    await openWallets(page);
    await page.evaluate((hide) => {
      const host = document.querySelector('cpe-wallet-a')!;
      // A decoy in the top layer above the sheet, letting clicks through (pointer-events: none): the
      // shopper sees the decoy and clicks where Approve is. Or the sheet's dialog made transparent.
      const decoy = document.createElement('div');
      decoy.popover = 'manual';
      decoy.textContent = 'Spin the wheel: click the middle of the screen!';
      decoy.style.cssText = 'pointer-events:none;position:fixed;inset:0;width:100vw;height:100vh;max-width:none;max-height:none;margin:0;border:0;background:#fff';
      document.body.append(decoy);
      new MutationObserver(() => {
        const dialog = host.shadowRoot!.querySelector('dialog');
        if (!dialog) return;
        if (hide === 'opacity') dialog.style.opacity = '0';
        else if (!decoy.matches(':popover-open')) decoy.showPopover();
      }).observe(host.shadowRoot!, { childList: true, subtree: true });
    }, hide);
    await page.clock.pauseAt(Date.now() + 1000);
    await page.frameLocator('#wallet-a iframe').first().getByRole('button').click();
    const frame = page.frameLocator('dialog iframe');
    const approve = frame.getByRole('button', { name: 'Approve' });
    await approve.waitFor({ state: 'attached' });
    const box = (await approve.boundingBox())!;
    return { x: box.x + box.width / 2, y: box.y + box.height / 2 };
  }

  for (const hide of ['decoy', 'opacity'] as const)
  it(`a blind click through a sheet the page hid (${hide === 'decoy' ? 'covered by a decoy that lets clicks through' : 'opacity 0'}) does not pay`, async () => {
    const { page, context } = await stack.newPage();
    try {
      // The page's clock: it moves only when the test says.
      await page.clock.install();
      const before = (await walletTokens());
      const { x, y } = await openSheet(page, hide);
      // The shopper clicks what they think is on the page, again and again, for two seconds.
      for (let i = 0; i < 10; i++) {
        await page.mouse.click(x, y);
        await page.clock.runFor(200);
      }
      assert.equal((await walletTokens()), before, 'the invisible sheet minted a wallet token');
      assert.equal(await page.locator('#wallet-a-status', { hasText: 'Paid' }).count(), 0);
    } finally {
      await context.close();
    }
  });

  it('a click 100 ms after the sheet appears does not pay; after half a second fully visible, Approve pays', async () => {
    const { page, context } = await stack.newPage();
    try {
      await page.clock.install();
      const before = (await walletTokens());
      const frame = page.frameLocator('dialog iframe');
      await openWallets(page);
      // From here the page's time moves only by runFor: however slow the machine, 100 ms is 100 ms.
      await page.clock.pauseAt(Date.now() + 1000);
      await page.frameLocator('#wallet-a iframe').first().getByRole('button').click();
      const approve = frame.getByRole('button', { name: 'Approve' });
      await approve.waitFor({ state: 'visible' });
      await frame.getByText('£12.34').waitFor(); // the sheet has its session: nothing but the guard holds Approve back
      // 100 ms after the sheet appears, the shopper (or a script timing a click) presses Approve.
      await page.clock.runFor(100);
      const box = (await approve.boundingBox())!;
      await page.mouse.click(box.x + box.width / 2, box.y + box.height / 2);
      assert.equal(await approve.isDisabled(), true, 'Approve is not armed 100 ms after the sheet appeared');
      // Armed once fully visible for half a second of the page's time: never sooner.
      let elapsed = 100;
      const stillDisabled = async () => {
        assert.equal(await approve.count(), 1, 'the sheet closed: the early click paid');
        return approve.isDisabled();
      };
      while (await stillDisabled()) {
        assert.ok(elapsed < 5_000, 'Approve never armed');
        await page.clock.runFor(100);
        elapsed += 100;
      }
      assert.ok(elapsed >= 500, `Approve armed after ${elapsed} ms`);
      assert.equal((await walletTokens()), before, 'the click at 100 ms paid');
      await page.clock.resume();
      await approve.click();
      await page.locator('#wallet-a-status', { hasText: 'Paid with wallet A.' }).waitFor();
      assert.equal((await walletTokens()), before + 1);
    } finally {
      await context.close();
    }
  });
});
