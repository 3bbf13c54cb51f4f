/**
 * The Flows and wallets written in HTML (attributes = kebab-case options), with the fake frame
 * (fixtures/fake-frame.ts): the frame address they build, identifiers, and attribute errors.
 */
import { expect, fixture, html, oneEvent } from '@open-wc/testing';
import type { CpePaymentFlow, CpeWalletA, CpeWalletB } from '../../components/index.ts';
import '../../components/index.ts';
import { fakeController, frameScript } from './helpers.ts';

const params = (el: HTMLElement) => Object.fromEntries(new URL(el.shadowRoot!.querySelector('iframe')!.src).searchParams);

describe('Flows and wallets in HTML', () => {
  beforeEach(() => frameScript());

  it('<cpe-payment-flow> and <cpe-verify-flow>: the flow frame with their attributes; default identifiers', async () => {
    const page = await fixture<HTMLDivElement>(html`<div>
      <cpe-payment-flow layout="row" language="fr"></cpe-payment-flow>
      <cpe-verify-flow theme="dark"></cpe-verify-flow>
    </div>`);
    const [pay, verify] = [...page.children] as CpePaymentFlow[];
    const controller = fakeController();
    pay!.controller = controller;
    verify!.controller = controller;
    await pay!.awaitReady();
    await verify!.awaitReady();
    expect(params(pay!)).to.include({ flow: 'pay', layout: 'row', lang: 'fr', pk: 'pk_test_fake' });
    expect(params(verify!)).to.include({ flow: 'verify', layout: 'stack', theme: 'dark' });
    expect(pay!.frameConfig().extra).to.deep.equal({ identifier: 'default_payment_flow' });
    expect(verify!.frameConfig().extra).to.deep.equal({ identifier: 'default_verify_flow' });
  });

  it('two <cpe-payment-flow> with the same identifier on one controller: the second emits cpe:error saying so', async () => {
    const controller = fakeController();
    const first = await fixture<CpePaymentFlow>(html`<cpe-payment-flow identifier="checkout"></cpe-payment-flow>`);
    first.controller = controller;
    await first.awaitReady();
    const second = await fixture<CpePaymentFlow>(html`<cpe-payment-flow identifier="checkout"></cpe-payment-flow>`);
    const heard = oneEvent(second, 'cpe:error');
    second.controller = controller;
    const { detail } = await heard;
    expect(detail.message).to.contain('"checkout"').and.contain('already used');
    // Removed from the page, its identifier is free again.
    first.remove();
    second.remove();
    const third = await fixture<CpePaymentFlow>(html`<cpe-payment-flow identifier="checkout"></cpe-payment-flow>`);
    third.controller = controller;
    await third.awaitReady();
  });

  it('<cpe-wallet-a> and <cpe-wallet-b>: appearance and total from attributes; flags present = true', async () => {
    const page = await fixture<HTMLDivElement>(html`<div style="width: 320px">
      <cpe-wallet-a appearance-type="donate" appearance-style="white" total-amount="1234" total-label="Gift"></cpe-wallet-a>
      <cpe-wallet-b merchant-id="m1" merchant-name="Shop" appearance-type="checkout" email-address-required></cpe-wallet-b>
    </div>`);
    const [a, b] = [...page.children] as [CpeWalletA, CpeWalletB];
    a.controller = fakeController();
    b.controller = fakeController();
    await a.awaitReady();
    await b.awaitReady();
    expect(params(a)).to.include({ wallet: 'a', type: 'donate', style: 'white' });
    expect(params(b)).to.include({ wallet: 'b', type: 'checkout', style: 'dark' });
    expect(await a.availability).to.deep.equal({ available: true });
    expect((b as unknown as { options: object }).options).to.deep.include({ emailAddressRequired: true, merchantId: 'm1' });
  });

  it('an invalid wallet attribute emits cpe:error naming the option', async () => {
    const el = await fixture<CpeWalletA>(html`<cpe-wallet-a appearance-type="pay"></cpe-wallet-a>`);
    const heard = oneEvent(el, 'cpe:error');
    el.controller = fakeController();
    const { detail } = await heard;
    expect(detail).to.include({ code: 'invalid_options' });
    expect(detail.message).to.contain('"appearance.type"');
  });
});
