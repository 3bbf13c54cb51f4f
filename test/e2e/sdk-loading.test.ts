import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { parseCsp, startStack, type Stack } from '../../testkit/stack.ts';

describe('the merchant page loads the SDK cross-origin', () => {
  let stack: Stack;
  before(async () => {
    stack = await startStack();
  });
  after(async () => {
    await stack?.close();
  });

  it('the demo merchant and the service are different origins', () => {
    assert.notEqual(new URL(stack.demoUrl).origin, new URL(stack.serviceUrl).origin);
  });

  it('/sdk/cpe.js is a cross-origin module script with a short cache and an ETag', async () => {
    const response = await fetch(`${stack.serviceUrl}/sdk/cpe.js`, { headers: { Origin: stack.demoUrl } });
    assert.equal(response.status, 200);
    assert.match(response.headers.get('content-type') ?? '', /^text\/javascript\b/);
    assert.equal(response.headers.get('access-control-allow-origin'), '*');
    assert.equal(response.headers.get('cross-origin-resource-policy'), 'cross-origin');
    assert.equal(response.headers.get('x-content-type-options'), 'nosniff');
    assert.match(response.headers.get('cache-control') ?? '', /max-age=\d+/);
    assert.doesNotMatch(response.headers.get('cache-control') ?? '', /no-store/);
    const etag = response.headers.get('etag');
    assert.ok(etag, 'ETag header');
    const code = await response.text();
    assert.match(code, /createElements/);

    // A browser's revalidation (fetch() alone would add `Cache-Control: no-cache`, an end-to-end reload).
    const again = await fetch(`${stack.serviceUrl}/sdk/cpe.js`, { headers: { 'If-None-Match': etag, 'Cache-Control': 'max-age=0' } });
    assert.equal(again.status, 304);
    assert.equal(await again.text(), '');

    const head = await fetch(`${stack.serviceUrl}/sdk/cpe.js`, { method: 'HEAD' });
    assert.equal(head.status, 200);
    assert.equal(head.headers.get('etag'), etag);
  });

  it('a missing SDK file and other methods fall through to the API (404 error object)', async () => {
    const missing = await fetch(`${stack.serviceUrl}/sdk/nope.js`);
    assert.equal(missing.status, 404);
    assert.equal((await missing.json()).error.type, 'invalid_request_error');
    const traversal = await fetch(`${stack.serviceUrl}/sdk/..%2f..%2fpackage.json`);
    assert.equal(traversal.status, 404);
    const post = await fetch(`${stack.serviceUrl}/sdk/cpe.js`, { method: 'POST' });
    assert.notEqual(post.status, 200);
  });

  it("the demo page's CSP allows the service origin for script, frame and connect", async () => {
    const response = await fetch(stack.demoUrl);
    const csp = parseCsp(response.headers.get('content-security-policy'));
    const service = new URL(stack.serviceUrl).origin;
    for (const directive of ['script-src', 'frame-src', 'connect-src']) {
      assert.ok(csp.get(directive)?.includes(service), `${directive} allows ${service}: ${csp.get(directive)?.join(' ')}`);
    }
    assert.ok(!csp.get('script-src')?.includes("'unsafe-inline'"), 'no inline script');
    assert.ok(!csp.get('script-src')?.includes("'unsafe-eval'"), 'no eval');
  });
});
