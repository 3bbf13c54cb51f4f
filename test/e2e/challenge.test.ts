import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { clickOrPress } from './helpers/frame-click.ts';
import { startStack, type Stack } from '../../testkit/stack.ts';
import { scaled } from '../../testkit/time.ts';

/**
 * The 3-D Secure challenge page in a real browser: framed by the merchant page (another origin), it
 * shows the amount, and Complete or Fail reaches the page that framed it on the MessageChannel port
 * that page handed to the challenge's `ready` (the service origin's, naming the uuid of its fragment),
 * while the intent moves on the server. On the window, only `ready` with that uuid.
 */
describe('3-D Secure challenge in Chromium', { timeout: scaled(600_000) }, () => {
  let stack: Stack;
  before(async () => {
    stack = await startStack();
  });
  after(async () => {
    await stack?.close();
  });

  const backend = async (path: string, json: unknown) => {
    const response = await fetch(`${stack.serviceUrl}/v1/payment_intents${path}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${stack.service.credentials.licenceKey}`, 'content-type': 'application/json' },
      body: JSON.stringify(json),
    });
    return response.json();
  };

  /** An intent with the challenge card attached and confirmed: the challenge URL. */
  async function challengeIntent() {
    const { merchantId, licenceKey } = stack.service.credentials;
    const created = await backend('', { merchantid: merchantId, amount: 1234, currency: 'GBP', identifier: 'e2e-3ds' });
    // A server-side token (test mode): /frames/tokenise answers the hosted frames only.
    const tokenised = await fetch(`${stack.serviceUrl}/v1/tokens`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${licenceKey}` },
      body: JSON.stringify({ card: { number: '4000 0000 0000 3220', exp_month: '12', exp_year: String(new Date().getFullYear() + 2), cvc: '123', name: 'Ada Lovelace' } }),
    }).then((r) => r.json());
    await backend('/attach', { payment_intent_id: created.paymentIntentId, token: tokenised.data.cp_card_token });
    const confirmed = await backend('/confirm', { payment_intent_id: created.paymentIntentId });
    assert.equal(confirmed.status, 'requires_customer_authentication');
    return { id: created.paymentIntentId as string, challenge: confirmed.challenge as { url: string; transaction_id: string } };
  }

  async function runChallenge(button: 'Complete' | 'Fail' | 'Escape') {
    const { id, challenge } = await challengeIntent();
    const { page, problems } = await stack.newPage();
    await page.goto(`${stack.demoUrl}/components/card`);
    // The merchant page frames the challenge as the SDK does (a uuid in the fragment; a port for each
    // of its documents' `ready`) and keeps what it hears, on the window and on the ports.
    const uuid = await page.evaluate((url) => {
      const session = crypto.randomUUID();
      const w = window as unknown as { heard: unknown[]; onWindow: unknown[] };
      w.heard = [];
      w.onWindow = [];
      // Only the popup channel's messages: the demo page's own card frame says hello too.
      addEventListener('message', (event) => {
        if (!String(event.data?.type ?? '').startsWith('cpe:popup:')) return;
        w.onWindow.push({ origin: event.origin, data: event.data });
        // A close before the page had its port comes on the window (to this origin only).
        if (event.data.type === 'cpe:popup:close') w.heard.push({ origin: event.origin, data: event.data });
        if (event.data.type !== 'cpe:popup:ready' || event.data.session !== session) return;
        const { port1, port2 } = new MessageChannel();
        port1.onmessage = (m) => w.heard.push({ origin: event.origin, data: m.data });
        (event.source as Window).postMessage({ type: 'cpe:popup:init', session }, { targetOrigin: event.origin, transfer: [port2] });
      });
      const frame = document.createElement('iframe');
      frame.src = `${url}#${session}`;
      frame.title = '3-D Secure';
      frame.style.height = '400px';
      document.body.append(frame);
      return session;
    }, challenge.url);
    const frame = page.frameLocator('iframe[title="3-D Secure"]');
    await frame.getByText('£12.34').first().waitFor();
    if (button === 'Escape') {
      // Enabled once the page's script has put the fragment into the form's action.
      await frame.locator('button[value="complete"]:enabled').waitFor();
      await frame.getByRole('button', { name: 'Complete' }).focus();
      await page.keyboard.press('Escape');
    }
    const answered = (timeout: number) => page.waitForFunction(() => (window as unknown as { heard: unknown[] }).heard[0], undefined, { timeout, polling: 100 });
    if (button !== 'Escape') await clickOrPress(frame.getByRole('button', { name: button }), answered, { timeout: scaled(10_000) });
    const heard = await answered(10_000);
    const message = (await heard.jsonValue()) as { origin: string; data: unknown };
    const onWindow = (await page.evaluate(() => (window as unknown as { onWindow: Array<{ data: unknown }> }).onWindow)).map((m) => m.data);
    assert.ok(onWindow.length >= 1);
    for (const data of onWindow) assert.ok([JSON.stringify({ type: 'cpe:popup:ready', session: uuid }), JSON.stringify({ type: 'cpe:popup:close', session: uuid })].includes(JSON.stringify(data)), `on the window, only ready (or close) with the uuid: ${JSON.stringify(data)}`);
    assert.deepEqual(problems, []);
    return { id, challenge, message, uuid };
  }

  it('Complete: the merchant page hears "completed" on the port handed to the service origin, and the intent can be authorised', async () => {
    const { id, challenge, message, uuid } = await runChallenge('Complete');
    assert.equal(message.origin, new URL(stack.serviceUrl).origin);
    assert.deepEqual(message.data, { type: 'cpe:3ds:result', transaction_id: challenge.transaction_id, status: 'completed', session: uuid });
    const authorised = await backend('/authorise', { payment_intent_id: id });
    assert.equal(authorised.authorised, true);
    assert.equal(authorised.status, 'succeeded');
  });

  it('Fail: the merchant page hears "failed", and the intent is failed', async () => {
    const { id, message } = await runChallenge('Fail');
    assert.equal((message.data as { status: string }).status, 'failed');
    const intent = await fetch(`${stack.serviceUrl}/v1/payment_intents/${id}`, {
      headers: { authorization: `Bearer ${stack.service.credentials.licenceKey}` },
    }).then((r) => r.json());
    assert.equal(intent.status, 'failed');
  });

  it('Escape inside the challenge page asks the merchant page to cancel (its dialog never sees that key)', async () => {
    const { id, uuid, message } = await runChallenge('Escape');
    assert.equal(message.origin, new URL(stack.serviceUrl).origin);
    assert.deepEqual(message.data, { type: 'cpe:popup:close', session: uuid });
    const intent = await fetch(`${stack.serviceUrl}/v1/payment_intents/${id}`, {
      headers: { authorization: `Bearer ${stack.service.credentials.licenceKey}` },
    }).then((r) => r.json());
    assert.equal(intent.status, 'requires_customer_authentication', 'Escape answers nothing: the intent still waits');
  });

  it('a page on an origin the merchant did not allow cannot frame the challenge', async () => {
    const { challenge } = await challengeIntent();
    const { page } = await stack.newPage();
    // Same demo server, but reached as another origin than the merchant's allowed ones.
    const stranger = stack.demoUrl.replace('localhost', '127.0.0.2');
    await page.goto(stranger);
    const blocked = page.waitForEvent('console', (message) => /frame-ancestors|Refused to frame/i.test(message.text()));
    await page.evaluate((url) => {
      const frame = document.createElement('iframe');
      frame.src = url;
      document.body.append(frame);
    }, challenge.url);
    await blocked;
    // Blocked, Chromium shows its own error page in the frame: the challenge page never loaded there.
    // (Reading the frame's text instead would pass on any failure to read it.)
    const frame = await (await page.waitForSelector('iframe')).contentFrame();
    assert.ok(frame, 'the iframe has a frame');
    assert.doesNotMatch(frame.url(), /\/frames\/challenge/, `the challenge page loaded: ${frame.url()}`);
    assert.equal(await frame.getByRole('button', { name: 'Complete' }).count(), 0);
  });
});
