import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { dashboardLink } from '../../server/admin/admin-routes.ts';
import { cookiePair, dashboard, signIn } from '../helpers/dashboard.ts';
import { ManualClock, startTestService, type TestService } from '../helpers/service.ts';

/**
 * The dashboard's sign-in and session: the licence key or a one-time link, a 12-hour cookie
 * (HttpOnly, SameSite=Strict, Secure behind https), a CSRF token on every action, actions only from
 * the dashboard's own origin, sign-in attempts limited per address, and the licence key never sent
 * back. Each defence is shown by the attack it stops.
 */
describe('dashboard sessions', () => {
  const clock = new ManualClock();
  let svc: TestService;
  before(async () => {
    svc = await startTestService({ dashboardSignInLimit: { perSecond: 0.001, burst: 1000 } }, clock);
  });
  after(() => svc?.close());

  const key = () => ({ licence_key: svc.credentials.licenceKey });

  it('signs in with the licence key: a 12-hour HttpOnly SameSite=Strict cookie for /dashboard; the key is never sent back', async () => {
    const answer = await dashboard(svc, 'POST', '/sign-in', { json: key() });
    assert.equal(answer.status, 200, answer.text);
    const cookie = answer.headers.get('set-cookie')!;
    assert.match(cookie, /^cpe_dashboard=cpe_ds_[\w-]{32}; Max-Age=43200; Path=\/dashboard; HttpOnly; SameSite=Strict$/);
    assert.deepEqual(answer.body.merchant, { id: svc.credentials.merchantId, name: 'CPE demo shop' });
    const login = { cookie: cookiePair(cookie), csrf: answer.body.csrf_token as string, merchantId: answer.body.merchant.id as number };
    for (const path of ['/session', '/keys', '/requests']) {
      const read = await dashboard(svc, 'GET', path, { login });
      assert.equal(read.status, 200, `${path}: ${read.text}`);
      assert.ok(!read.text.includes(svc.credentials.licenceKey), `${path} sends the licence key back`);
    }
    assert.ok(!answer.text.includes(svc.credentials.licenceKey));
    const keys = (await dashboard(svc, 'GET', '/keys', { login })).body;
    assert.equal(keys.licence_key.last4, svc.credentials.licenceKey.slice(-4));
    assert.equal(keys.public_key, svc.credentials.publicKey);
  });

  it('refuses a wrong key, a public key and a missing one, naming the field', async () => {
    for (const licence_key of ['sk_test_nope', svc.credentials.publicKey]) {
      const answer = await dashboard(svc, 'POST', '/sign-in', { json: { licence_key } });
      assert.equal(answer.status, 401);
      assert.equal(answer.body.error.code, 'sign_in_failed');
      assert.equal(answer.headers.get('set-cookie'), null);
    }
    const missing = await dashboard(svc, 'POST', '/sign-in', { json: {} });
    assert.equal(missing.status, 400);
    assert.equal(missing.body.error.param, 'licence_key');
  });

  it('a one-time link signs in once, within its hour', async () => {
    const link = await dashboardLink(svc.services, svc.credentials.merchantId);
    assert.match(link.url, new RegExp(`^${svc.url}/dashboard/link#cpe_dl_`));
    const token = link.url.split('#')[1]!;
    const login = await signIn(svc, { link: token });
    assert.equal(login.merchantId, svc.credentials.merchantId);
    assert.equal((await dashboard(svc, 'GET', '/session', { login })).body.via, 'link');
    const again = await dashboard(svc, 'POST', '/sign-in', { json: { link: token } });
    assert.equal(again.status, 401);
    assert.match(again.body.error.message, /used already or has expired/);

    const late = (await dashboardLink(svc.services, svc.credentials.merchantId)).url.split('#')[1]!;
    clock.advance(3601);
    assert.equal((await dashboard(svc, 'POST', '/sign-in', { json: { link: late } })).status, 401);
  });

  it('a session ends after 12 hours', async () => {
    const login = await signIn(svc, key());
    clock.advance(12 * 3600 - 10);
    assert.equal((await dashboard(svc, 'GET', '/keys', { login })).status, 200);
    clock.advance(11);
    const expired = await dashboard(svc, 'GET', '/keys', { login });
    assert.equal(expired.status, 401);
    assert.equal(expired.body.error.code, 'signed_out');
    assert.deepEqual((await dashboard(svc, 'GET', '/session', { login })).body, { signed_in: false });
  });

  it('an action without its CSRF token, or with another session\'s, is refused; with it, it runs', async () => {
    const login = await signIn(svc, key());
    const other = await signIn(svc, key());
    for (const token of ['', 'x'.repeat(43), other.csrf]) {
      const answer = await dashboard(svc, 'POST', '/sign-out', { login, headers: { 'X-CSRF-Token': token } });
      assert.equal(answer.status, 403, `token '${token}'`);
      assert.equal(answer.body.error.code, 'csrf_token_invalid');
    }
    assert.equal((await dashboard(svc, 'GET', '/session', { login })).body.merchant.id, svc.credentials.merchantId, 'still signed in');
    const out = await dashboard(svc, 'POST', '/sign-out', { login });
    assert.equal(out.status, 200);
    assert.match(out.headers.get('set-cookie')!, /^cpe_dashboard=; Max-Age=0;/);
    assert.equal((await dashboard(svc, 'GET', '/keys', { login })).status, 401);
  });

  it('refuses an action from another site, even with a valid cookie and token (a cross-site form, a script, no Origin)', async () => {
    const login = await signIn(svc, key());
    const attacks: Record<string, string>[] = [
      { Origin: 'http://evil.example', 'Sec-Fetch-Site': 'cross-site' },
      { Origin: 'http://evil.example', 'Sec-Fetch-Site': '' },
      { Origin: 'null', 'Sec-Fetch-Site': 'cross-site' },
      { Origin: svc.url, 'Sec-Fetch-Site': 'same-site' },
      { Origin: '', 'Sec-Fetch-Site': '' },
    ];
    for (const headers of attacks) {
      const form = await dashboard(svc, 'POST', '/keys/roll', { login, form: { expiry: 'now' }, headers });
      assert.equal(form.status, 403, JSON.stringify(headers));
      assert.equal(form.body.error.code, 'cross_site_request');
    }
    // Sign-in from another site is refused too (no login CSRF).
    const signInAttack = await dashboard(svc, 'POST', '/sign-in', { json: key(), headers: { Origin: 'http://evil.example', 'Sec-Fetch-Site': 'cross-site' } });
    assert.equal(signInAttack.status, 403);
    // Nothing was rolled: the seeded key still works.
    assert.equal((await svc.api('POST', '/v1/payment_intents', { token: svc.credentials.licenceKey, json: {} })).status, 400);
  });

  it('serves the dashboard page with a CSP as strict as the frames\', framed by no page, for every address of the app but its API', async () => {
    for (const path of ['/dashboard', '/dashboard/', '/dashboard/payments/pi_123', '/dashboard/link']) {
      const response = await fetch(svc.url + path);
      assert.equal(response.status, 200, path);
      assert.match(response.headers.get('content-type')!, /^text\/html/);
      const csp = response.headers.get('content-security-policy')!;
      // Its boot script and stylesheet are inline, each allowed by its hash alone.
      assert.match(csp, /default-src 'self'; script-src 'self' 'sha256-[\w+/=]{44}'; style-src 'self' 'sha256-[\w+/=]{44}';/);
      assert.match(csp, /frame-ancestors 'none'/);
      assert.doesNotMatch(csp, /unsafe-inline|unsafe-eval/);
      assert.equal(response.headers.get('x-frame-options'), 'DENY');
      assert.equal(response.headers.get('cross-origin-opener-policy'), 'same-origin');
      assert.match(await response.text(), /<dash-app>/);
    }
    const api = await fetch(`${svc.url}/dashboard/api/nothing`);
    assert.equal(api.status, 404);
    assert.equal((await api.json()).error.code, 'route_missing');
  });
});

describe('behind https', () => {
  let svc: TestService;
  before(async () => {
    svc = await startTestService({ publicUrl: 'https://cpe.example' });
  });
  after(() => svc?.close());

  it('the session cookie is Secure, and actions come from the public https origin', async () => {
    const https = { Origin: 'https://cpe.example' };
    const answer = await dashboard(svc, 'POST', '/sign-in', { json: { licence_key: svc.credentials.licenceKey }, headers: https });
    assert.equal(answer.status, 200, answer.text);
    assert.match(answer.headers.get('set-cookie')!, /; HttpOnly; SameSite=Strict; Secure$/);
    assert.equal((await dashboard(svc, 'POST', '/sign-in', { json: { licence_key: svc.credentials.licenceKey } })).status, 403, 'from the http origin');
  });
});

describe('dashboard sign-in attempts are limited per address', () => {
  let svc: TestService;
  before(async () => {
    svc = await startTestService({ dashboardSignInLimit: { perSecond: 0.001, burst: 3 } });
  });
  after(() => svc?.close());

  it('after the burst, 429 with Retry-After, even for the right key', async () => {
    for (let i = 0; i < 3; i++) assert.equal((await dashboard(svc, 'POST', '/sign-in', { json: { licence_key: `sk_test_guess${i}` } })).status, 401);
    const limited = await dashboard(svc, 'POST', '/sign-in', { json: { licence_key: svc.credentials.licenceKey } });
    assert.equal(limited.status, 429);
    assert.ok(Number(limited.headers.get('retry-after')) >= 1);
  });
});

describe('Roll key', () => {
  const clock = new ManualClock();
  let svc: TestService;
  let dataDir: string;
  before(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'cpe-roll-'));
    svc = await startTestService({ dataDir }, clock);
  });
  after(async () => {
    await svc?.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('makes a new key shown once, expires the old one when asked, signs out every other session, and rewrites the seeded credentials.json', async () => {
    const oldKey = svc.credentials.licenceKey;
    const rolling = await signIn(svc, { licence_key: oldKey });
    const elsewhere = await signIn(svc, { link: (await dashboardLink(svc.services, svc.credentials.merchantId)).url.split('#')[1]! });

    const rolled = await dashboard(svc, 'POST', '/keys/roll', { login: rolling, json: { expiry: '24h' } });
    assert.equal(rolled.status, 200, rolled.text);
    const newKey: string = rolled.body.licence_key;
    assert.match(newKey, /^sk_test_[\w-]{32}$/);
    assert.equal(rolled.body.sessions_ended, 1);
    assert.equal(rolled.body.credentials_file_updated, true);
    assert.equal(rolled.headers.get('cache-control'), 'no-store');
    assert.equal(JSON.parse(readFileSync(join(dataDir, 'credentials.json'), 'utf8')).licenceKey, newKey);

    assert.equal((await dashboard(svc, 'GET', '/keys', { login: elsewhere })).status, 401, 'the other session ended');
    const keys = (await dashboard(svc, 'GET', '/keys', { login: rolling })).body;
    assert.equal(keys.licence_key.last4, newKey.slice(-4));
    assert.deepEqual(keys.expiring, [{ last4: oldKey.slice(-4), expires_at: clock.now() + 86_400 }]);
    assert.ok(!JSON.stringify(keys).includes(newKey), 'never shown again');

    const list = (token: string) => svc.api('GET', '/v1/payment_intents/pi_none', { token });
    assert.equal((await list(oldKey)).status, 404, 'the old key works for 24 hours');
    assert.equal((await list(newKey)).status, 404);
    clock.advance(86_400);
    const refused = await list(oldKey);
    assert.equal(refused.status, 401);
    assert.match(refused.body.error.message, /rolled and has expired/);
    assert.equal((await list(newKey)).status, 404);
    assert.equal((await dashboard(svc, 'POST', '/sign-in', { json: { licence_key: oldKey } })).status, 401, 'an expired key signs in no more');

    // A day later the session is over too (12 hours); signed in again, rolled at once: the last key stops now.
    const back = await signIn(svc, { licence_key: newKey });
    const again = await dashboard(svc, 'POST', '/keys/roll', { login: back, json: { expiry: 'now' } });
    assert.equal(again.status, 200);
    assert.equal((await list(newKey)).status, 401);
    assert.equal((await list(again.body.licence_key)).status, 404);
    const bad = await dashboard(svc, 'POST', '/keys/roll', { login: back, json: { expiry: 'later' } });
    assert.equal(bad.status, 400);
    assert.equal(bad.body.error.param, 'expiry');
  });
});
