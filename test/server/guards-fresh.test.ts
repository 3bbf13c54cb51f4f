import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import { ElementsOptions } from '../../protocol/elements-options.ts';
import * as guards from '../../protocol/generated/guards.ts';
import { check, conforms } from '../../protocol/json-guard.ts';
import { CUSTOM_CHECKS, isRelativeUrl } from '../../protocol/option-checks.ts';
import { GUARDS_PATH, generateGuards } from '../../scripts/gen-guards.ts';

describe('generated guards (protocol/generated/guards.ts)', () => {
  it('are what the zod schemas give today (run `npm run gen:guards` after changing a schema)', () => {
    assert.equal(readFileSync(GUARDS_PATH, 'utf8'), generateGuards(), 'protocol/generated/guards.ts is stale: npm run gen:guards');
  });

  it('agree with zod on the bridge messages and the session', () => {
    const hello = { cpe: 1, type: 'hello', session: 'abc' };
    assert.equal(conforms(guards.Hello, hello), true);
    assert.equal(conforms(guards.Hello, { ...hello, cpe: 2 }), false);
    assert.equal(conforms(guards.Response, { cpe: 1, kind: 'response', id: 3, ok: true, result: {} }), true);
    assert.equal(conforms(guards.Response, { cpe: 1, kind: 'response', id: 3, ok: false, error: { code: 'x' } }), false);
    assert.equal(conforms(guards.Response, { cpe: 1, kind: 'response', ok: true, result: {} }), false, 'id is required');
    const token = { data: { cp_card_token: 'tok_1', scheme: 'visa', last4: '4242', expiry_month: 12, expiry_year: 2030 } };
    assert.equal(conforms(guards.RESULTS.tokenise!, token), true);
    assert.equal(conforms(guards.RESULTS.tokenise!, { data: { ...token.data, last4: '42' } }), false);
    assert.equal(conforms(guards.EVENTS.change!, { complete: true, empty: false, scheme: 'visa', invalid: ['cvc'] }), true);
    assert.equal(conforms(guards.EVENTS.change!, { complete: true, empty: false, scheme: 'visa', invalid: ['pin'] }), false);
    assert.equal(conforms(guards.ChallengeCancel, { type: 'cpe:3ds:cancel', transaction_id: 't' }), true);
    assert.equal(conforms(guards.ChallengeMessage, { type: 'cpe:3ds:result', transaction_id: 't', status: 'maybe' }), false);
    assert.deepEqual(check(guards.PaymentIntentSession, { paymentIntentId: 'pi', sessionToken: '', opaqueKey: 'ok' }), [
      { path: ['sessionToken'], message: 'must be a non-empty string (session_token of the create result)' },
    ]);
  });

  it('give each option its message, custom checks included, as zod does', () => {
    const fn = async () => ({ paymentIntentId: 'pi', sessionToken: 'st', opaqueKey: 'ok' });
    const cases: [unknown, string[]][] = [
      [{ pubKey: 'pk_test_1', createServerIntent: fn }, []],
      [{ pubKey: 'abc', createServerIntent: fn }, ['pubKey: must be your public key, a string starting "pk_"']],
      [{ pubKey: 'sk_test_1', createServerIntent: fn }, ['pubKey: is a licence key (sk_…): never put it in browser code; pass your public key (pk_…) instead']],
      [{ pubKey: 'pk_1', createServerIntent: 'x' }, ['createServerIntent: must be an async function that asks your backend to create a Payment Intent and resolves to { paymentIntentId, sessionToken, opaqueKey }']],
      [{ pubKey: 'pk_1', createServerIntent: fn, middleware: { attach: '//evil.example/a' } }, ['middleware.attach: must be a relative URL on your backend, such as "/api/cpe/attach", not an absolute URL or another origin']],
    ];
    for (const [value, expected] of cases) {
      const issues = check(guards.ElementsOptions, value, CUSTOM_CHECKS).map((i) => `${i.path.join('.')}: ${i.message}`);
      assert.deepEqual(issues, expected);
      assert.equal(ElementsOptions.safeParse(value).success, expected.length === 0, JSON.stringify(value));
    }
    assert.deepEqual(check(guards.ElementsOptions, { pubKey: 'pk_1', createServerIntent: fn, middleware: { authorize: '/a' } }, CUSTOM_CHECKS)[0]!.keys, ['authorize']);
  });

  it('the relative-URL pattern is the SDK check', () => {
    for (const url of ['/api/a', 'api/a', '?x=1', 'a:b/'.slice(2)]) assert.equal(isRelativeUrl(url), true, url);
    for (const url of ['', 'https://x.example/a', 'javascript:alert(1)', '//x.example', '\\\\x', 'HTTP://x']) assert.equal(isRelativeUrl(url), false, url);
  });
});

describe('the merchant-side SDK (components/)', () => {
  it('imports no zod at run time, directly or through protocol/ (type-only imports are fine)', () => {
    const root = new URL('../../', import.meta.url);
    const seen = new Set<string>();
    const offenders: string[] = [];
    const visit = (file: URL, from: string) => {
      if (seen.has(file.href)) return;
      seen.add(file.href);
      const text = readFileSync(file, 'utf8');
      // Every `import … from '…'` / `export … from '…'` that is not `import type` / `export type`.
      for (const [, kind, spec] of text.matchAll(/^\s*(import|export)\s+(?!type\b)[^'";]*?from\s+'([^']+)'/gm)) {
        if (spec!.startsWith('.')) visit(new URL(spec!, file), file.pathname);
        else if (/^zod(\/|$)/.test(spec!)) offenders.push(`${file.pathname.slice(root.pathname.length)} (${kind} from '${spec}', reached from ${from.slice(root.pathname.length)})`);
      }
      for (const [, spec] of text.matchAll(/^\s*import\s+'([^']+)'/gm)) if (spec!.startsWith('.')) visit(new URL(spec!, file), file.pathname);
    };
    visit(new URL('components/index.ts', root), 'components/index.ts');
    assert.ok(seen.size > 10, 'walked the SDK');
    assert.deepEqual(offenders, []);
  });
});
