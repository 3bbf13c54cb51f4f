import assert from 'node:assert/strict';
import type { TestService } from './service.ts';

/** A signed-in dashboard session as a browser holds it: the cookie and the CSRF token the page was given. */
export interface DashboardLogin {
  cookie: string;
  csrf: string;
  merchantId: number;
}

export interface DashboardAnswer {
  status: number;
  headers: Headers;
  body: any;
  text: string;
}

/**
 * A request to the dashboard's API as its own page sends it: the service's Origin and same-origin
 * fetch metadata, the cookie, and for an action the CSRF token (each of which a test may override).
 */
export async function dashboard(
  svc: Pick<TestService, 'url'>,
  method: string,
  path: string,
  options: { login?: DashboardLogin; json?: unknown; headers?: Record<string, string>; form?: Record<string, string> } = {},
): Promise<DashboardAnswer> {
  const headers: Record<string, string> = { Origin: new URL(svc.url).origin, 'Sec-Fetch-Site': 'same-origin' };
  if (options.login) {
    headers.Cookie = options.login.cookie;
    if (method !== 'GET') headers['X-CSRF-Token'] = options.login.csrf;
  }
  let body: string | undefined;
  if (options.json !== undefined) {
    headers['Content-Type'] = 'application/json';
    body = JSON.stringify(options.json);
  } else if (options.form) {
    headers['Content-Type'] = 'application/x-www-form-urlencoded';
    body = new URLSearchParams(options.form).toString();
  }
  Object.assign(headers, options.headers);
  for (const [name, value] of Object.entries(headers)) if (value === '') delete headers[name];
  const response = await fetch(`${svc.url}/dashboard/api${path}`, { method, headers, body, redirect: 'manual' });
  const text = await response.text();
  return { status: response.status, headers: response.headers, body: text && response.headers.get('content-type')?.includes('json') ? JSON.parse(text) : text, text };
}

/** The `name=value` of a Set-Cookie header. */
export const cookiePair = (setCookie: string | null) => (setCookie ?? '').split(';')[0]!;

/** Signs in with a licence key or a link token, as the sign-in page does. */
export async function signIn(svc: Pick<TestService, 'url'>, credential: { licence_key: string } | { link: string }): Promise<DashboardLogin> {
  const answer = await dashboard(svc, 'POST', '/sign-in', { json: credential });
  assert.equal(answer.status, 200, answer.text);
  return { cookie: cookiePair(answer.headers.get('set-cookie')), csrf: answer.body.csrf_token, merchantId: answer.body.merchant.id };
}
