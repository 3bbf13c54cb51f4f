import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { CpeClient, toSession } from '../../client/index.ts';
import { CARDS, openCheckout, pay, typeCard } from '../e2e/helpers/checkout.ts';
import { startStack, type Stack, type TestPage } from '../../testkit/stack.ts';
import { attackerMerchant, CAPTURE_PORTS, gotToken, reinitFrame, requestOnCapturedPorts, type AttackerMerchant, type PortLog } from './helpers/attack.ts';
import { startMerchantSite, type MerchantSite } from './helpers/merchant-site.ts';
import { scaled } from '../../testkit/time.ts';

/**
 * Finding 1 of issue 12 (high): a script on the merchant page re-initialised the live card frame with
 * another merchant's public key and session, and the frame tokenised the card the shopper had typed
 * for that merchant, before and after the shopper's own payment. Each test below is that script, on
 * the demo merchant's page (another origin than the service), against every kind of frame.
 */
let stack: Stack;
let attacker: AttackerMerchant;
before(async () => {
  stack = await startStack();
  attacker = await attackerMerchant(stack.service);
});
after(async () => {
  await stack?.close();
});

/** Nothing the frame sent to the attacker's port: no `ready`, no answer, no token; the attacker's merchant has no token. */
async function assertIgnored(log: PortLog, tokensBefore: number, what: string): Promise<void> {
  assert.equal(gotToken(log), false, `${what}: the frame tokenised for the attacker`);
  assert.deepEqual(log, [], `${what}: the frame answered the attacker's init: ${JSON.stringify(log)}`);
  assert.equal((await attacker.tokens()), tokensBefore, `${what}: the attacker's merchant got a card token`);
}

const KINDS = [
  { name: 'card form (<cpe-card>)', path: '/components/card', app: '/frames/card-form/', split: false },
  { name: 'split fields (<cpe-card-fields>, the number frame)', path: '/components/fields', app: 'field=number', split: true },
] as const;

describe("a page script re-initialises a live frame with another merchant's key and session", { timeout: scaled(600_000) }, () => {
  for (const kind of KINDS)
    it(`${kind.name}: ignored before and after the shopper's own payment, which still succeeds`, async () => {
      const { page, context } = await openCheckout(stack, kind.path);
      try {
        await typeCard(page, CARDS.visa, { split: kind.split });
        const tokens = (await attacker.tokens());
        await assertIgnored(await reinitFrame(page, kind.app, { pubKey: attacker.publicKey, session: await attacker.session() }), tokens, 'before the payment');
        assert.equal((await pay(page)).state, 'success', "the shopper's own payment");
        await assertIgnored(await reinitFrame(page, kind.app, { pubKey: attacker.publicKey, session: await attacker.session() }), tokens, 'after the payment');
      } finally {
        await context.close();
      }
    });

  it('payment flow (<cpe-payment-flow>): ignored before and after the payment', async () => {
    const { page, context } = await stack.newPage();
    try {
      await page.goto(`${stack.demoUrl}/components/flow`);
      const frame = page.frameLocator('cpe-payment-flow iframe').first();
      const payButton = frame.getByRole('button', { name: /^Pay/ });
      await payButton.waitFor();
      await frame.getByLabel('Card number').pressSequentially('4242424242424242');
      await frame.getByLabel('Expiry date').pressSequentially('1230');
      await frame.getByLabel('Security code').pressSequentially('123');
      await frame.getByLabel('Name on card').fill('Ada Lovelace');
      const tokens = (await attacker.tokens());
      await assertIgnored(await reinitFrame(page, '/frames/flow/', { pubKey: attacker.publicKey, session: await attacker.session() }), tokens, 'before the payment');
      await payButton.click();
      await frame.getByText('Payment complete.').waitFor();
      await assertIgnored(await reinitFrame(page, '/frames/flow/', { pubKey: attacker.publicKey, session: await attacker.session() }), tokens, 'after the payment');
    } finally {
      await context.close();
    }
  });

  it('wallet button (<cpe-wallet-a>): ignored', async () => {
    const { page, context } = await stack.newPage();
    try {
      await page.goto(`${stack.demoUrl}/components/wallets`);
      await page.frameLocator('#wallet-a iframe, cpe-wallet-a iframe').first().locator('button').waitFor();
      await assertIgnored(await reinitFrame(page, '/frames/wallet-button/', { pubKey: attacker.publicKey, session: await attacker.session() }), (await attacker.tokens()), 'wallet button');
    } finally {
      await context.close();
    }
  });
});

describe("a script that holds the element's own port (it wrapped MessageChannel before the SDK loaded)", { timeout: scaled(600_000) }, () => {
  async function open(): Promise<TestPage> {
    const opened = await stack.newPage();
    await opened.context.addInitScript(CAPTURE_PORTS);
    await opened.page.goto(`${stack.demoUrl}/components/card`);
    await opened.page.locator('#status[data-state="ready"]').waitFor();
    return opened;
  }
  const merchantClient = () => new CpeClient({ licenceKey: stack.service.credentials.licenceKey, baseUrl: stack.serviceUrl });
  const codes = (log: PortLog) => log.filter((m) => m.kind === 'response').map((m) => (m.ok ? 'ok' : m.error!.code));

  it("cannot configure the frame with another merchant's key, nor with another merchant's session under this key", async () => {
    const { page, context } = await open();
    try {
      await typeCard(page, CARDS.visa);
      const tokens = (await attacker.tokens());
      const other = await requestOnCapturedPorts(page, { pubKey: attacker.publicKey, session: await attacker.session() });
      // The configure is refused; a token the frame then makes is still for its own merchant, the page's.
      assert.ok(codes(other).includes('merchant_mismatch'), `refused: ${JSON.stringify(codes(other))}`);
      assert.equal((await attacker.tokens()), tokens);
      const borrowed = await requestOnCapturedPorts(page, { pubKey: stack.service.credentials.publicKey, session: await attacker.session() });
      assert.ok(codes(borrowed).includes('invalid_session'), `refused: ${JSON.stringify(codes(borrowed))}`);
      assert.equal(gotToken(borrowed), false);
      assert.equal((await attacker.tokens()), tokens);
    } finally {
      await context.close();
    }
  });

  it("after the shopper's payment succeeded, the card is locked: a new session of the same merchant gets no token until reset()", async () => {
    const { page, context } = await open();
    try {
      await typeCard(page, CARDS.visa);
      assert.equal((await pay(page)).state, 'success');
      const { merchantId, publicKey } = stack.service.credentials;
      const second = toSession(await merchantClient().createPaymentIntent({ merchantid: merchantId, amount: 99_00, currency: 'GBP', identifier: 'second-charge' }));
      const log = await requestOnCapturedPorts(page, { pubKey: publicKey, session: { paymentIntentId: second.paymentIntentId, sessionToken: second.sessionToken } });
      assert.equal(gotToken(log), false, `the paid card was tokenised again: ${JSON.stringify(log)}`);
      assert.ok(codes(log).includes('fields_locked'), JSON.stringify(codes(log)));
    } finally {
      await context.close();
    }
  });
});

describe('a sibling frame of another origin on the merchant page', { timeout: scaled(600_000) }, () => {
  let third: MerchantSite;
  let shop: MerchantSite;
  before(async () => {
    shop = await startMerchantSite(stack.service);
    shop.page(
      '/card',
      `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Shop</title></head><body>
      <script type="module" src="${stack.serviceUrl}/sdk/cpe.js"></script>
      <cpe-elements pub-key="${shop.credentials.publicKey}" intent-url="/api/payment-intents"><cpe-card layout="stack"></cpe-card></cpe-elements></body></html>`,
    );
    third = await startMerchantSite(stack.service, '127.0.0.1');
    // An advert's frame: it tries every frame of its parent, as a compromised third party would.
    third.page(
      '/ad',
      `<!doctype html><title>Ad</title><script>
      addEventListener('message', async (event) => {
        if (event.data?.type !== 'attack') return;
        const results = [];
        for (let i = 0; i < parent.length; i++) {
          const w = parent.frames[i];
          if (w === window) continue;
          const r = { i };
          try { r.href = w.location.href; } catch (e) { r.read = e.name; }
          try { r.doc = String(!!w.document.body); } catch (e) { r.doc = e.name; }
          const got = [];
          for (const session of event.data.uuids) {
            const { port1, port2 } = new MessageChannel();
            port1.onmessage = (m) => got.push(m.data);
            w.postMessage({ cpe: 1, type: 'init', session, config: { pubKey: event.data.pk, tokens: {} } }, '*', [port2]);
            port1.postMessage({ cpe: 1, kind: 'request', id: 1, method: 'tokenise', params: {} });
          }
          try { w.location.href = 'https://attacker.example/phish'; r.nav = 'no error'; } catch (e) { r.nav = e.name; }
          await new Promise((res) => setTimeout(res, event.data.wait));
          r.got = got.length;
          results.push(r);
        }
        parent.postMessage({ type: 'attack-done', results }, '*');
      });
      </script>`,
    );
  });
  after(async () => {
    await third?.close();
    await shop?.close();
  });

  it('cannot forge an init, read the card frame or navigate it; the frame then tokenises for its own merchant', async () => {
    const { page, context } = await stack.newPage();
    try {
      await page.goto(`${shop.url}/card`);
      await page.evaluate(() => (document.querySelector('cpe-card') as HTMLElement & { awaitReady(): Promise<void> }).awaitReady());
      await typeCard(page, CARDS.visa);
      const tokens = (await attacker.tokens());
      const results = (await page.evaluate(
        async ({ src, pk, wait }) => {
          const all: HTMLIFrameElement[] = [];
          const roots: Array<Document | ShadowRoot> = [document];
          while (roots.length) for (const el of roots.pop()!.querySelectorAll('*')) (el instanceof HTMLIFrameElement && all.push(el), el.shadowRoot && roots.push(el.shadowRoot));
          // The sibling even learns the session uuids (it could not read them itself).
          const uuids = all.map((f) => new URL(f.src).hash.slice(1).split('&')[0]);
          const ad = document.createElement('iframe');
          ad.src = src;
          document.body.append(ad);
          await new Promise((resolve) => ad.addEventListener('load', resolve, { once: true }));
          const done = new Promise((resolve) => addEventListener('message', (e) => e.data?.type === 'attack-done' && resolve(e.data.results)));
          ad.contentWindow!.postMessage({ type: 'attack', uuids, pk, wait }, '*');
          return done;
        },
        // How long the advert listens for an answer to its forged inits (none comes from a frame that is right).
        { src: `${third.url}/ad`, pk: attacker.publicKey, wait: scaled(1500) },
      )) as Array<{ read?: string; doc?: string; got: number; href?: string }>;
      // The element's frames live in its shadow root, which `parent.frames` does not list: usually the
      // sibling reaches none of them. Whatever it reaches, it can neither read, init nor navigate.
      for (const r of results) {
        assert.equal(r.href, undefined, 'read a frame address');
        assert.equal(r.read, 'SecurityError');
        assert.equal(r.doc, 'SecurityError');
        assert.equal(r.got, 0, 'a frame answered the forged init');
      }
      const card = page.frames().find((f) => f.url().includes('/frames/card-form/'));
      assert.ok(card, 'the card frame is still the service page (not navigated)');
      assert.equal((await attacker.tokens()), tokens);
      const token = await page.evaluate(async () => (await (document.querySelector('cpe-card') as HTMLElement & { tokenise(): Promise<{ data: { cp_card_token: string } }> }).tokenise()).data.cp_card_token);
      assert.match(token, /^tok_/);
    } finally {
      await context.close();
    }
  });
});
