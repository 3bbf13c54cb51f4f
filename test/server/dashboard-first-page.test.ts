import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { dashboard, signIn, type DashboardLogin } from '../helpers/dashboard.ts';
import { ManualClock, startTestService, type TestService } from '../helpers/service.ts';

/**
 * A signed-in visit's dashboard page carries its first data (server/dashboard/first-page.ts): the
 * session and, for Home, the newest event and Home's figures, as the API answers them, in a JSON data
 * block the page reads instead of asking. Only that session's merchant's data; nothing for a visit
 * without a live session; never the licence key; never stored by a cache; the CSP unchanged.
 */
describe('the dashboard page\'s first data', () => {
  const clock = new ManualClock();
  let svc: TestService;
  let login: DashboardLogin;
  let other: DashboardLogin;
  let otherKey: string;
  let paymentId: string;
  let otherPaymentId: string;
  before(async () => {
    svc = await startTestService({}, clock);
    login = await signIn(svc, { licence_key: svc.credentials.licenceKey });
    // A name that would end the data block early, were the JSON put in as it is.
    const second = await svc.services.merchants.create({ name: 'Shop </script><script>alert(1)</script><!--', origins: [] });
    otherKey = second.licenceKey;
    other = await signIn(svc, { licence_key: otherKey });
    paymentId = await paid(svc.credentials.merchantId);
    otherPaymentId = await paid(second.merchantId);
  });
  after(() => svc?.close());

  /** A payment authorised by a card, for `merchantId` (through the services the routes call). */
  async function paid(merchantId: number): Promise<string> {
    const { payments } = svc.services;
    const created = await payments.create(merchantId, { merchantid: merchantId, amount: 1500, currency: 'GBP', identifier: `first-page-${merchantId}` } as never);
    const token = (await payments.createToken(merchantId, { number: '4242424242424242', exp_month: '12', exp_year: '2040', cvc: '123', name: 'First Page' })) as { data: { cp_card_token: string } };
    await payments.attach(merchantId, created.paymentIntentId, { token: token.data.cp_card_token });
    await payments.confirm(merchantId, created.paymentIntentId, null);
    await payments.authorise(merchantId, created.paymentIntentId);
    return created.paymentIntentId;
  }

  /** The dashboard's page for an address, with `cookie` (none: signed out). */
  async function page(path: string, cookie?: string) {
    const response = await fetch(svc.url + path, { headers: cookie ? { cookie } : {} });
    const html = await response.text();
    const block = /<script type="application\/json" id="dash-first">([^]*?)<\/script>/.exec(html);
    return { response, html, first: block ? (JSON.parse(block[1]!) as { session: any; answers: Record<string, any> }) : undefined };
  }

  it('signed in, Home carries the session, the newest event and Home\'s figures: the answers the API gives', async () => {
    const { response, html, first } = await page('/dashboard', login.cookie);
    assert.equal(response.status, 200);
    assert.ok(first, 'no first data in the page');
    assert.deepEqual(Object.keys(first.answers).sort(), ['/events?limit=1', '/home?tz_offset=0', '/session']);
    for (const path of Object.keys(first.answers)) assert.deepEqual(first.answers[path], (await dashboard(svc, 'GET', path, { login })).body, path);
    assert.deepEqual(first.session, first.answers['/session']);
    assert.equal(first.session.merchant.id, svc.credentials.merchantId);
    assert.equal(first.session.csrf_token, login.csrf);
    assert.equal(first.answers['/events?limit=1'].data[0].data.object.id, paymentId);
    assert.equal(first.answers['/home?tz_offset=0'].days.at(-1).payments, 1);
    assert.ok(!html.includes(svc.credentials.licenceKey), 'the licence key is in the page');
    // The head names what comes (the boot script asks for none of it); the data block ends the body.
    assert.match(html, /<meta name="dash-first" content="\/session \/events\?limit=1 \/home\?tz_offset=0">\s*<script type="application\/json" id="dash-chunks">/);
    assert.match(html, /<\/dash-app>[^]*<script type="application\/json" id="dash-first">[^<]*<\/script>\s*<\/body>\s*<\/html>\s*$/);
  });

  it('sends it compressed, whichever encoding the browser takes', async () => {
    const plain = (await page('/dashboard', login.cookie)).first;
    for (const encoding of ['br', 'gzip', 'identity']) {
      const response = await fetch(`${svc.url}/dashboard`, { headers: { cookie: login.cookie, 'accept-encoding': encoding } });
      assert.equal(response.headers.get('content-encoding'), encoding === 'identity' ? null : encoding);
      const block = /id="dash-first">([^]*?)<\/script>/.exec(await response.text());
      assert.deepEqual(JSON.parse(block![1]!).answers['/session'], plain!.answers['/session'], encoding);
    }
  });

  it('holds nothing of another merchant, whose own page holds none of the first\'s; markup in a name stays inside the data', async () => {
    const mine = await page('/dashboard', login.cookie);
    const theirs = await page('/dashboard', other.cookie);
    assert.ok(!mine.html.includes(otherPaymentId) && !mine.html.includes(other.csrf) && !mine.html.includes('alert(1)'));
    assert.equal(theirs.first!.session.merchant.id, other.merchantId);
    assert.equal(theirs.first!.answers['/events?limit=1'].data[0].data.object.id, otherPaymentId);
    assert.ok(!theirs.html.includes(paymentId) && !theirs.html.includes(login.csrf) && !theirs.html.includes(otherKey));
    // The name comes back whole from the JSON, and never as markup of the page.
    assert.equal(theirs.first!.session.merchant.name, 'Shop </script><script>alert(1)</script><!--');
    assert.ok(!theirs.html.includes('<script>alert(1)') && !theirs.html.includes('<!--'), 'the name escaped the data block');
  });

  it('is made for its request only: no-store, Vary: Cookie, no ETag; the same CSP as the built page\'s', async () => {
    const signedIn = await page('/dashboard', login.cookie);
    const signedOut = await page('/dashboard');
    assert.equal(signedIn.response.headers.get('cache-control'), 'no-store');
    assert.match(signedIn.response.headers.get('vary')!, /cookie/i);
    assert.equal(signedIn.response.headers.get('etag'), null);
    assert.equal(signedIn.response.headers.get('content-security-policy'), signedOut.response.headers.get('content-security-policy'));
    assert.equal(signedOut.response.headers.get('cache-control'), 'no-cache');
    assert.match(signedOut.response.headers.get('vary')!, /cookie/i);
  });

  it('signed out (no cookie, an unknown one, an ended or expired session), the page carries no data', async () => {
    const built = (await page('/dashboard')).html;
    assert.ok(!built.includes('id="dash-first"'));
    const ended = await signIn(svc, { licence_key: svc.credentials.licenceKey });
    assert.equal((await dashboard(svc, 'POST', '/sign-out', { login: ended })).status, 200);
    for (const cookie of ['cpe_dashboard=cpe_ds_nothing', ended.cookie]) assert.equal((await page('/dashboard', cookie)).html, built, cookie);
    const expiring = await signIn(svc, { licence_key: svc.credentials.licenceKey });
    clock.advance(12 * 3600 + 1);
    try {
      assert.equal((await page('/dashboard', expiring.cookie)).html, built);
    } finally {
      login = await signIn(svc, { licence_key: svc.credentials.licenceKey });
      other = await signIn(svc, { licence_key: otherKey });
    }
  });

  it('Home\'s days follow the time zone cookie the page keeps; another page carries the session only', async () => {
    const berlin = await page('/dashboard', `${login.cookie}; cpe_dashboard_tz=-60`);
    assert.deepEqual(Object.keys(berlin.first!.answers).sort(), ['/events?limit=1', '/home?tz_offset=-60', '/session']);
    assert.deepEqual(berlin.first!.answers['/home?tz_offset=-60'], (await dashboard(svc, 'GET', '/home?tz_offset=-60', { login })).body);
    for (const tz of ['9999', 'x', '']) assert.ok(`/home?tz_offset=0` in (await page('/dashboard', `${login.cookie}; cpe_dashboard_tz=${tz}`)).first!.answers, tz);
    const payments = await page('/dashboard/payments', login.cookie);
    assert.deepEqual(Object.keys(payments.first!.answers), ['/session']);
    assert.match(payments.html, /<meta name="dash-first" content="\/session">/);
  });
});
