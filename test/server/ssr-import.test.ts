import assert from 'node:assert/strict';
import { test } from 'node:test';

// Server-side rendering (Next, Nuxt, Astro…) imports the SDK module in Node: it must not throw, and
// it defines nothing (no `customElements` there) until a browser runs it.
test('importing the SDK in Node neither throws nor defines elements', async () => {
  assert.equal(typeof (globalThis as { customElements?: unknown }).customElements, 'undefined');
  const sdk = await import('../../components/index.ts');
  assert.equal(typeof sdk.createElements, 'function');
  assert.equal(typeof (globalThis as { customElements?: unknown }).customElements, 'undefined');
});
