import { expect, waitUntil } from '@open-wc/testing';
import type { PaymentForm } from '../../iframe-app/payment/payment-form.ts';
import { knownWidth } from '../../iframe-app/shared/known-width.ts';
import { mountFrame } from './frame-mount.ts';

/**
 * The payment frame draws what its address says from its first render: the methods (the names it
 * knows, in the address's order) and whether it has its own Pay button. Its hello's height is then its final
 * one (they came with the init, after the hello, and the element grew just after ready).
 */
describe('payment frame', () => {
  afterEach(() => document.querySelectorAll('iframe').forEach((f) => f.remove()));

  it('methods and button=none from its address: tabs in its order, unknown names left out, no Pay button; the hello says the height it keeps', async () => {
    const { doc, hello } = await mountFrame('payment', 'pk=pk_test_1&lang=en&layout=stack&methods=wallet-b,cash,card&button=none');
    const el = doc.querySelector('cpe-payment-form') as PaymentForm;
    await el.updateComplete;
    const tabs = [...el.shadowRoot!.querySelectorAll('[role=tab]')].map((t) => [t.textContent!.trim(), t.getAttribute('aria-selected')]);
    expect(tabs).to.deep.equal([
      ['Wallet B', 'true'],
      ['Card', 'false'],
    ]);
    expect(el.shadowRoot!.querySelector('button.action')).to.equal(null);
    expect(hello.height).to.equal(Math.ceil(el.getBoundingClientRect().height));
  });

  it('no name it knows: the card alone, with its Pay button', async () => {
    const { doc } = await mountFrame('payment', 'pk=pk_test_1&lang=en&layout=stack&methods=cash');
    const el = doc.querySelector('cpe-payment-form') as PaymentForm;
    await el.updateComplete;
    expect(el.methods).to.deep.equal(['card']);
    expect(el.shadowRoot!.querySelectorAll('[role=tab], .row')).to.have.length(0);
    expect(el.shadowRoot!.querySelector('#cpe-number')).to.not.equal(null);
    expect(el.shadowRoot!.querySelector('button.action')).to.not.equal(null);
  });

  it('a methods parameter that is not a list of names: the frame refuses its address', async () => {
    const iframe = document.createElement('iframe');
    iframe.src = `/iframe-app/payment/index.html?pk=pk_test_1&lang=en&methods=${encodeURIComponent('card;<b>')}#${crypto.randomUUID()}`;
    document.body.append(iframe);
    await new Promise((resolve) => iframe.addEventListener('load', resolve, { once: true }));
    const alert = await new Promise<Element>((resolve) => {
      const look = () => {
        const found = iframe.contentDocument?.querySelector('[role=alert]');
        if (found) resolve(found);
        else requestAnimationFrame(look);
      };
      look();
    });
    expect(iframe.contentDocument!.querySelector('cpe-payment-form')).to.equal(null);
    expect(alert.textContent).to.not.equal('');
  });
});

describe("a frame's first render waits for its width (knownWidth)", () => {
  afterEach(() => document.querySelectorAll('iframe').forEach((f) => f.remove()));

  /** A same-origin frame `width` px wide, as a frame before its size reaches it (Chromium's default 300 px, or none). */
  async function narrowFrame(width = 300): Promise<HTMLIFrameElement> {
    const iframe = document.createElement('iframe');
    iframe.style.width = `${width}px`;
    document.body.append(iframe);
    await new Promise((resolve) => requestAnimationFrame(resolve));
    return iframe;
  }
  const settled = (promise: Promise<void>) => {
    let done = false;
    void promise.then(() => (done = true));
    return () => done;
  };

  it('waits while the viewport is not the width the address says, and resolves once it is', async () => {
    const iframe = await narrowFrame();
    const done = settled(knownWidth(iframe.contentWindow!, 600, 600_000));
    await new Promise((resolve) => requestAnimationFrame(resolve));
    expect(done(), 'resolved at 300 px').to.equal(false);
    iframe.style.width = '600px';
    await waitUntil(done, 'not resolved at 600 px');
  });

  // A card field's element is display: contents, so its address says no width: the field said its
  // height laid out at none (86 px), then drew itself 80 px tall once its size came.
  it('with no width in its address, waits while the frame has none, and resolves once it has one', async () => {
    const iframe = await narrowFrame(0);
    const done = settled(knownWidth(iframe.contentWindow!, undefined, 600_000));
    await new Promise((resolve) => requestAnimationFrame(resolve));
    expect(done(), 'resolved at 0 px').to.equal(false);
    iframe.style.width = '123px';
    await waitUntil(done, 'not resolved at 123 px');
  });

  it('resolves at once when the width is already right or unknown, and after its patience otherwise', async () => {
    const iframe = await narrowFrame();
    const win = iframe.contentWindow!;
    for (const width of [300, undefined]) {
      const done = settled(knownWidth(win, width, 600_000));
      await Promise.resolve();
      expect(done(), `width ${width}`).to.equal(true);
    }
    await knownWidth(win, 600, 0);
  });
});
