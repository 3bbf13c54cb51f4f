import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { startTestService, type TestService } from '../helpers/service.ts';
import { CARDS, challengeFormToken, fromFrame, getIntent, readyToAuthorise } from '../server/payments-fixtures.ts';

/**
 * Finding 3 of issue 12: the challenge page's answer route accepted a POST carrying neither Origin nor
 * Sec-Fetch-Site, so whoever held the challenge's address (the merchant page sees it) could answer
 * the 3-D Secure challenge for the shopper. Now the answer needs the one-time token rendered in the
 * page's form (never in a URL), the service's Origin, and same-origin fetch metadata where sent.
 * (test/security/wallet.test.ts completes a real challenge in Chromium over its MessageChannel.)
 */
let svc: TestService;
before(async () => (svc = await startTestService()));
after(() => svc.close());

const answer = (secret: string, headers: Record<string, string>, form: Record<string, string> = {}) =>
  fetch(`${svc.url}/frames/challenge`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json', ...headers },
    body: new URLSearchParams({ challenge: secret, outcome: 'complete', ...form }),
  });

describe('the 3-D Secure answer from a script', () => {
  test('a client with the challenge address but no browser (no Origin, no token) is refused; nothing changes', async () => {
    const { session, confirm } = await readyToAuthorise(svc, CARDS.challenge);
    const url = confirm.challenge.url as string;
    const secret = new URL(url).searchParams.get('challenge')!;
    assert.ok(!url.includes(await challengeFormToken(url)), 'the form token is not in the address');
    const refused = await answer(secret, {});
    assert.equal(refused.status, 403);
    assert.equal((await refused.json()).error.code, 'challenge_page_only');
    // A forged Origin without the page's token, or a merchant page's Origin with it, is refused too.
    assert.equal((await answer(secret, fromFrame(svc))).status, 403);
    assert.equal((await answer(secret, fromFrame(svc), { form_token: 'guessed' })).status, 403);
    const token = await challengeFormToken(url);
    assert.equal((await answer(secret, { Origin: 'http://localhost:4243', 'Sec-Fetch-Site': 'cross-site' }, { form_token: token })).status, 403);
    assert.equal((await answer(secret, { Origin: svc.url, 'Sec-Fetch-Site': 'cross-site' }, { form_token: token })).status, 403);
    assert.equal((await getIntent(svc, session.paymentIntentId)).status, 'requires_customer_authentication');
    // The page's own form: its token, the service's Origin, same-origin.
    const ok = await answer(secret, fromFrame(svc), { form_token: token });
    assert.equal(ok.status, 200);
    assert.equal((await getIntent(svc, session.paymentIntentId)).status, 'requires_authorisation');
  });
});
