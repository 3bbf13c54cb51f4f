import assert from 'node:assert/strict';
import type { ApiResponse, TestService } from '../helpers/service.ts';

/** Shared steps of the payment tests: every call goes over HTTP and is checked against the API description. */

export const CARDS = {
  visa: '4242 4242 4242 4242',
  mastercard: '5555555555554444',
  amex: '3782 822463 10005',
  challenge: '4000000000003220',
  declined: '4000000000000002',
  insufficient: '4000000000009995',
  attachFail: '4000000000000127',
  attachRetriable: '4000000000000119',
  otherLuhn: '4111111111111111',
} as const;

export const futureYear = String(new Date().getUTCFullYear() + 3);

export interface Session {
  paymentIntentId: string;
  session_token: string;
  opaque_key: string;
  headers: Record<string, string>;
}

export const createBody = (svc: TestService, extra: Record<string, unknown> = {}) => ({
  merchantid: svc.credentials.merchantId,
  amount: 1234,
  currency: 'GBP',
  identifier: 'order-1',
  billTo: {
    title: 'Ms',
    firstname: 'Ada',
    lastname: 'Lovelace',
    email: 'ada@example.test',
    address1: '12 Analytical Row',
    country: 'GB',
    postcode: 'N1 9GU',
  },
  ...extra,
});

export async function createIntent(svc: TestService, extra: Record<string, unknown> = {}): Promise<Session> {
  const r = await svc.api('POST', '/v1/payment_intents', { token: svc.credentials.licenceKey, json: createBody(svc, extra) });
  assert.equal(r.status, 200, JSON.stringify(r.body));
  return {
    ...r.body,
    headers: { 'X-CPE-Public-Key': svc.credentials.publicKey, 'X-CPE-Session-Token': r.body.session_token },
  };
}

/** What a hosted frame's own request carries beside the session: the service's Origin and fetch metadata. */
export const fromFrame = (service: { url: string }) => ({ Origin: service.url, 'Sec-Fetch-Site': 'same-origin' });

/** Tokenises as the hosted frame does (its Origin and fetch metadata unless `session.headers` says otherwise). */
export function tokenise(svc: TestService, session: Session, card: Partial<Record<'number' | 'exp_month' | 'exp_year' | 'cvc' | 'name', string>> = {}): Promise<ApiResponse> {
  const number = card.number ?? CARDS.visa;
  const cvc = card.cvc ?? (number.replace(/\D/g, '').length === 15 ? '1234' : '123');
  return svc.api('POST', '/frames/tokenise', {
    headers: { ...fromFrame(svc), ...session.headers },
    json: { card: { number, exp_month: '12', exp_year: futureYear, cvc, name: 'Ada Lovelace', ...card, ...(card.cvc ? {} : { cvc }) } },
  });
}

export async function tokenOf(svc: TestService, session: Session, number: string): Promise<string> {
  const r = await tokenise(svc, session, { number });
  assert.equal(r.status, 200, JSON.stringify(r.body));
  return r.body.data.cp_card_token;
}

/** A backend POST with the licence key. */
export const backend = (svc: TestService, op: string, json: Record<string, unknown>, headers: Record<string, string> = {}) =>
  svc.api('POST', `/v1/payment_intents/${op}`, { token: svc.credentials.licenceKey, json, headers });

export const getIntent = async (svc: TestService, id: string) => {
  const r = await svc.api('GET', `/v1/payment_intents/${id}`, { token: svc.credentials.licenceKey });
  assert.equal(r.status, 200, JSON.stringify(r.body));
  return r.body;
};

/** The one-time token the challenge page's form carries ('' when the page has no form). */
export async function challengeFormToken(url: string): Promise<string> {
  const html = await (await fetch(url)).text();
  return /name="form_token" value="([^"]*)"/.exec(html)?.[1] ?? '';
}

/**
 * Answers a challenge the way the page's form does: a form POST from the service's own page (its
 * Origin, same-origin fetch metadata), with the secret and the form's one-time token.
 */
export async function answerChallenge(svc: TestService, url: string, outcome: 'complete' | 'fail', headers: Record<string, string> = {}) {
  const secret = new URL(url).searchParams.get('challenge')!;
  const form_token = await challengeFormToken(url.startsWith('http') ? url : `${svc.url}${url}`);
  return fetch(`${svc.url}/frames/challenge`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', ...fromFrame(svc), ...headers },
    body: new URLSearchParams({ challenge: secret, form_token, outcome }),
  });
}

/** create → tokenise → attach → confirm: the intent left at requires_authorisation (or the challenge). */
export async function readyToAuthorise(svc: TestService, number: string = CARDS.visa, extra: Record<string, unknown> = {}) {
  const session = await createIntent(svc, extra);
  const token = await tokenOf(svc, session, number);
  const attach = await backend(svc, 'attach', { payment_intent_id: session.paymentIntentId, token });
  assert.equal(attach.status, 200, JSON.stringify(attach.body));
  assert.equal(attach.body.status, 'requires_customer_confirmation');
  const confirm = await backend(svc, 'confirm', { payment_intent_id: session.paymentIntentId });
  assert.equal(confirm.status, 200, JSON.stringify(confirm.body));
  return { session, confirm: confirm.body, attach: attach.body };
}

export function assertError(r: ApiResponse, status: number, param?: string | null, type?: string) {
  assert.equal(r.status, status, JSON.stringify(r.body));
  if (param !== undefined) assert.equal(r.body.error.param, param, JSON.stringify(r.body));
  if (type !== undefined) assert.equal(r.body.error.type, type, JSON.stringify(r.body));
}
