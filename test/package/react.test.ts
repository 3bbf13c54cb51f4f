/**
 * The packed package in a new React project: `cpe/react` renders on the server (react-dom/server,
 * every wrapper, the options as attributes, nothing touching the DOM), its typings and the SDK's
 * (JSX, HTMLElementTagNameMap, typed events) check with TypeScript, and a small Vite + React app
 * built from it takes a payment in Chromium against the real service, from another origin, with its
 * backend on plain Node (`cpe/server`'s cpeNodeHandler).
 */
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { chromium } from 'playwright-core';
import { boundSocket } from '../../testkit/processes.ts';
import { scaled } from '../../testkit/time.ts';
import { CHROMIUM_FLAGS, chromiumPath } from '../../scripts/chromium-path.mjs';
import type { RunningService } from '../../server/start.ts';
import { startService } from '../../server/start.ts';
import { freshProject, openShop, packTarball, root, sh, shAsync, start, temporary, typeCard, versionOf, write } from './fresh-project.ts';
import { APP } from './react-app.ts';

const folder = temporary('cpe-package-react-');
let project: string;
const tsc = join(root, 'node_modules/.bin/tsc');

before(() => {
  const react = versionOf('react');
  project = freshProject(folder.dir, 'shop', packTarball(folder.dir), [`react@${react}`, `react-dom@${versionOf('react-dom')}`, `@types/react@${versionOf('@types/react')}`]);
});
after(() => folder.remove());

describe('cpe/react in a new React project', () => {
  it('renders every component on the server: the tag with its options as attributes, children inside, no handler, no DOM touched', () => {
    write(project, {
      'ssr.mjs': `
import { createElement as h } from 'react';
import { renderToString } from 'react-dom/server';
import * as cpe from 'cpe/react';

const noop = () => {};
const html = renderToString(
  h(cpe.CpeElements, { pubKey: 'pk_test_x', intentUrl: '/api/intent', exchangeUrl: '/api/cpe/exchange', amount: 1234, currency: 'GBP', onCpeElementsReady: noop },
    h(cpe.CpeCard, { layout: 'stack', language: 'fr', theme: 'dark', cardSchemesDisplay: 'all', width: 320, className: 'card', onCpeChange: noop, onCpeReady: noop }),
    h(cpe.CpeCardFields, { identifier: 'fields' }, h('div', { 'data-cpe-field': 'number' })),
    h(cpe.CpePaymentFlow, { identifier: 'pay', height: 300, onCpeAuthoriseEnd: noop }),
    h(cpe.CpeVerifyFlow, { layout: 'row' }),
    h(cpe.CpeWalletA, { total: { amount: 1234, label: 'Order 42' }, appearance: { type: 'buy', style: 'white' }, onCpeWalletApproved: noop }),
    h(cpe.CpeWalletB, { merchantId: 'm-1', merchantName: 'Shop', environment: 'TEST', allowCreditCards: false, emailAddressRequired: true, 'aria-label': 'Wallet B' }),
    h(cpe.CpePayment, { methods: ['card', 'wallet-a'], payButton: false, layout: 'stack' })));
console.log(JSON.stringify({ html, names: Object.keys(cpe).sort(), window: typeof window, customElements: typeof customElements }));
`,
    });
    const { html, names, window, customElements } = JSON.parse(sh(process.execPath, ['ssr.mjs'], project));
    assert.deepEqual(names, ['CpeCard', 'CpeCardFields', 'CpeElements', 'CpePayment', 'CpePaymentFlow', 'CpeVerifyFlow', 'CpeWalletA', 'CpeWalletB', 'useCpe', 'useElement']);
    assert.deepEqual([window, customElements], ['undefined', 'undefined']);
    assert.equal(
      html,
      '<cpe-elements pub-key="pk_test_x" intent-url="/api/intent" exchange-url="/api/cpe/exchange" amount="1234" currency="GBP">' +
        '<cpe-card layout="stack" language="fr" theme="dark" card-schemes-display="all" width="320" class="card"></cpe-card>' +
        '<cpe-card-fields identifier="fields"><div data-cpe-field="number"></div></cpe-card-fields>' +
        '<cpe-payment-flow identifier="pay" height="300"></cpe-payment-flow>' +
        '<cpe-verify-flow layout="row"></cpe-verify-flow>' +
        '<cpe-wallet-a total-amount="1234" total-label="Order 42" appearance-type="buy" appearance-style="white"></cpe-wallet-a>' +
        '<cpe-wallet-b merchant-id="m-1" merchant-name="Shop" environment="TEST" allow-credit-cards="false" email-address-required="true" aria-label="Wallet B"></cpe-wallet-b>' +
        '<cpe-payment methods="card wallet-a" pay-button="false" layout="stack"></cpe-payment>' +
        '</cpe-elements>',
    );
  });

  it("type-checks: the components' props and events, the tags in JSX, HTMLElementTagNameMap, typed DOM events, cpe/server", async () => {
    write(project, {
      'tsconfig.json': JSON.stringify({
        compilerOptions: { strict: true, noEmit: true, skipLibCheck: false, jsx: 'react-jsx', module: 'esnext', moduleResolution: 'bundler', target: 'es2022', lib: ['es2023', 'dom', 'dom.iterable'], types: [] },
        files: ['typed.tsx'],
      }),
      'typed.tsx': `
import { useRef } from 'react';
import { CpeCard, CpeElements, CpePayment, CpeWalletA, useCpe, useElement } from 'cpe/react';
import type { CpeCard as CardElement, PayResult, SdkError } from 'cpe/sdk';

export function Hooks() {
  const payment = useElement('cpe-payment');
  const { paymentIntentId, controller } = useCpe();
  const id: string | undefined = paymentIntentId;
  const paid: Promise<PayResult> | undefined = payment?.pay({ authorise: '/api/authorise', billingDetails: { name: 'Ada' } });
  // @ts-expect-error pay() takes no such option
  payment?.pay({ amount: 1 });
  return <CpePayment methods={['card', 'wallet-b']} payButton={false} onCpePaymentEnd={(e) => e.detail.error?.code} data-x={String(id) + String(paid) + String(controller)} />;
}

export function Checkout() {
  const card = useRef<CardElement>(null);
  const onChange = (complete: boolean) => complete;
  return (
    <CpeElements pubKey="pk_test_x" intentUrl="/api/intent" onCpeElementsReady={(e) => e.detail.controller.getPaymentIntentId()}>
      <CpeCard ref={card} layout="stack" cardSchemesDisplay="all" onCpeChange={(e) => onChange(e.detail.complete)} onCpeError={(e) => e.detail.message.length} />
      {/* @ts-expect-error not a layout */}
      <CpeCard layout="grid" />
      {/* @ts-expect-error the change event has no such field */}
      <CpeCard onCpeChange={(e) => e.detail.number} />
      <CpeWalletA total={{ amount: 1234, label: 'Order' }} onCpeWalletApproved={(e) => e.detail.last4} />
      {/* @ts-expect-error a wallet has no layout */}
      <CpeWalletA layout="row" />
      <cpe-card layout="row" card-schemes-display="none" ref={card} />
      {/* @ts-expect-error not a theme */}
      <cpe-payment-flow theme="purple" />
    </CpeElements>
  );
}

const element = document.createElement('cpe-card');
element.layout = 'column';
// @ts-expect-error not a layout
element.layout = 'grid';
const flow: string = document.createElement('cpe-verify-flow').identifier;
document.querySelector('cpe-wallet-b')?.addEventListener('cpe:wallet:approved', (e) => e.detail.scheme);
element.addEventListener('cpe:error', (e) => e.detail.code);
document.createElement('cpe-elements').addEventListener('cpe-elements:ready', (e) => e.detail.controller.pubKey);
export const error = (e: SdkError) => [e.code, e.option, flow];
`,
    });
    await shAsync(tsc, ['-p', 'tsconfig.json'], project);
    // cpe/server's declarations, as a Node backend compiles them (their Koa and Node types are its own to bring).
    write(project, {
      'tsconfig.server.json': JSON.stringify({ compilerOptions: { strict: true, noEmit: true, skipLibCheck: true, module: 'nodenext', moduleResolution: 'nodenext', target: 'es2022', types: [] }, files: ['server.ts'] }),
      'server.ts': `
import { CpeClient, cpeNodeHandler, toSession } from 'cpe/server';
const cpe = new CpeClient({ licenceKey: 'sk_test_x' });
export const created = cpe.createPaymentIntent({ merchantid: 1, amount: 1234, currency: 'GBP', identifier: 'o-1' }).then(toSession);
// @ts-expect-error the identifier is required
export const bad = cpe.createPaymentIntent({ merchantid: 1, amount: 1234, currency: 'GBP' });
export const handler = cpeNodeHandler({ client: cpe, allowIntent: (_req, id) => id === 'pi_1' });
`,
    });
    await shAsync(tsc, ['-p', 'tsconfig.server.json'], project);
  });

  it('a Vite + React app built from the package takes a payment in Chromium against the real service, from another origin: useElement() reaches <CpePayment>, useCpe() the intent id, pay() pays', { timeout: scaled(120_000) }, async () => {
    const service: RunningService = await startService({ port: 0, demoPort: 0, dataDir: join(folder.dir, 'data'), publicUrl: 'http://127.0.0.1:0', rateLimit: { perSecond: 0, burst: 0 }, log: { level: 'silent' } });
    const { server: socket, port } = await boundSocket('localhost');
    // The shop on localhost, the service on 127.0.0.1: another site, as in production.
    const shop = `http://localhost:${port}`;
    const merchant = await service.services.merchants.create({ origins: [shop] });
    write(project, APP);
    await shAsync(process.execPath, [join(root, 'node_modules/vite/bin/vite.js'), 'build'], project, { VITE_CPE_SERVICE: service.url, VITE_CPE_PUBLIC_KEY: merchant.publicKey });
    const backend = await start('backend.mjs', project, { SERVICE_URL: service.url, LICENCE_KEY: merchant.licenceKey, MERCHANT_ID: String(merchant.merchantId) }, socket);
    const browser = await chromium.launch({ executablePath: chromiumPath(), headless: true, args: [...CHROMIUM_FLAGS] });
    try {
      const { page, problems } = await openShop(browser, shop);
      await page.getByText('ready', { exact: true }).waitFor({ timeout: scaled(30_000) });
      // useCpe(): the intent's id, the one the backend made, reached without a ref.
      const { id } = await page.evaluate(() => fetch('/api/intent-id').then((r) => r.json()));
      assert.equal(await page.locator('#intent').textContent(), id);
      await typeCard(page, 'cpe-payment iframe');
      await page.getByRole('button', { name: 'Pay' }).click({ timeout: scaled(10_000) });
      await page.getByText(/^(paid|failed)/).waitFor({ timeout: scaled(30_000) });
      assert.equal(await page.locator('output').textContent(), 'paid: success succeeded');
      assert.deepEqual(problems, []);
    } finally {
      await browser.close();
      backend.stop();
      await service.close();
    }
  });
});
