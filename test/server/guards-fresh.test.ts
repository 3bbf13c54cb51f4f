import assert from 'node:assert/strict';
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { describe, it } from 'node:test';
import * as z from 'zod/mini';
import { Init, METHODS, Request } from '../../protocol/schemas/bridge.ts';
import { ElementsOptions } from '../../protocol/schemas/elements-options.ts';
import { FieldMessage } from '../../protocol/schemas/field-channel.ts';
import { FrameParams } from '../../protocol/schemas/frame-url.ts';
import { WalletApproval, WalletRequest } from '../../protocol/schemas/wallet.ts';
import { PopupInit } from '../../protocol/schemas/popup.ts';
import * as dialogGuards from '../../protocol/runtime/dialog-guards.ts';
import * as mainGuards from '../../protocol/runtime/guards.ts';
import { check, conforms, type Schema } from '../../protocol/runtime/json-guard.ts';
import { CUSTOM_CHECKS, isRelativeUrl } from '../../protocol/runtime/option-checks.ts';
import { PART_PATHS, generateGuards } from '../../scripts/gen-guards.ts';

/** Every generated guard, whichever module holds it. */
const guards = { ...mainGuards, ...dialogGuards };

describe('generated guards (protocol/runtime/guards.ts)', () => {
  it('are what the zod schemas give today (run `npm run gen:guards` after changing a schema)', () => {
    for (const [part, path] of Object.entries(PART_PATHS) as [keyof typeof PART_PATHS, string][])
      assert.equal(readFileSync(path, 'utf8'), generateGuards(part), `${path} is stale: npm run gen:guards`);
  });

  it('agree with zod on the bridge messages and the session', () => {
    const hello = { cpe: 1, type: 'hello', session: 'abc', height: 148 };
    assert.equal(conforms(guards.Hello, hello), true);
    assert.equal(conforms(guards.Hello, { ...hello, cpe: 2 }), false);
    assert.equal(conforms(guards.Hello, { cpe: 1, type: 'hello', session: 'abc' }), false, 'the hello carries the height');
    assert.equal(conforms(guards.Response, { cpe: 1, kind: 'response', id: 3, ok: true, result: {} }), true);
    assert.equal(conforms(guards.Response, { cpe: 1, kind: 'response', id: 3, ok: false, error: { code: 'x' } }), false);
    assert.equal(conforms(guards.Response, { cpe: 1, kind: 'response', ok: true, result: {} }), false, 'id is required');
    const token = { data: { cp_card_token: 'tok_1', scheme: 'visa', last4: '4242', expiry_month: 12, expiry_year: 2030 } };
    assert.equal(conforms(guards.RESULTS.tokenise!, token), true);
    assert.equal(conforms(guards.RESULTS.tokenise!, { data: { ...token.data, last4: '42' } }), false);
    assert.equal(conforms(guards.EVENTS.change!, { complete: true, empty: false, scheme: 'visa', invalid: ['cvc'] }), true);
    assert.equal(conforms(guards.EVENTS.change!, { complete: true, empty: false, scheme: 'visa', invalid: ['pin'] }), false);
    assert.equal(conforms(guards.PopupClose, { type: 'cpe:popup:close', session: 's' }), true);
    assert.equal(conforms(guards.PopupReady, { type: 'cpe:popup:ready', session: 's', height: -1 }), false);
    assert.equal(conforms(guards.ChallengeMessage, { type: 'cpe:3ds:result', transaction_id: 't', status: 'maybe' }), false);
    assert.deepEqual(check(guards.PaymentIntentSession, { paymentIntentId: 'pi', sessionToken: '', opaqueKey: 'ok' }), [
      { path: ['sessionToken'], message: 'must be a non-empty string (session_token of the create result)' },
    ]);
  });

  it('agree with zod on what the frames validate: init, requests, their address, the field channel, the wallet sheet', () => {
    const init = { cpe: 1, type: 'init', session: 's', config: { pubKey: 'pk_1', tokens: { '--cpe-color-primary': '#123' } } };
    const cases: [string, z.core.$ZodType, Schema, unknown][] = [
      ['init', Init, guards.Init, init],
      ['init, bad token name', Init, guards.Init, { ...init, config: { ...init.config, tokens: { color: 'red' } } }],
      ['init, token too long', Init, guards.Init, { ...init, config: { ...init.config, tokens: { '--cpe-x': 'x'.repeat(201) } } }],
      ['init, no config', Init, guards.Init, { cpe: 1, type: 'init', session: 's' }],
      ['request', Request, guards.Request, { cpe: 1, kind: 'request', id: 1, method: 'focus', params: { position: 'first' } }],
      ['request, id a string', Request, guards.Request, { cpe: 1, kind: 'request', id: '1', method: 'focus' }],
      ['focus params', METHODS.focus.params, guards.PARAMS.focus!, { position: 'first' }],
      ['focus params, bad position', METHODS.focus.params, guards.PARAMS.focus!, { position: 'middle' }],
      ['flowState params', METHODS.flowState.params, guards.PARAMS.flowState!, { state: 'failure', message: 'x'.repeat(301) }],
      ['address', FrameParams, guards.FrameParams, { pk: 'pk_test_1', lang: 'cy', layout: 'row', field: 'number', group: '0123456789abcdef0123456789abcdef0123' }],
      ['address, no pk_', FrameParams, guards.FrameParams, { pk: 'sk_test_1', lang: 'en' }],
      ['address, bad lang', FrameParams, guards.FrameParams, { pk: 'pk_1', lang: 'en<script>' }],
      ['address, bad layout', FrameParams, guards.FrameParams, { pk: 'pk_1', lang: 'en', layout: 'grid' }],
      ['field value', FieldMessage, guards.FieldMessage, { cpe: 1, type: 'value', id: 'a', field: 'cvc', value: '123', valid: true }],
      ['field value too long', FieldMessage, guards.FieldMessage, { cpe: 1, type: 'value', id: 'a', field: 'cvc', value: '1'.repeat(121), valid: true }],
      ['field message, unknown type', FieldMessage, guards.FieldMessage, { cpe: 1, type: 'steal', field: 'number' }],
      ['wallet request', WalletRequest, guards.WalletRequest, { wallet: 'b', label: 'Order 42', emailAddressRequired: true }],
      ['wallet request, label too long', WalletRequest, guards.WalletRequest, { wallet: 'b', label: 'x'.repeat(101) }],
      ['popup init', PopupInit, guards.PopupInit, { type: 'cpe:popup:init', session: 's', intent: { sessionToken: 't', paymentIntentId: 'pi' } }],
      ['popup init, intent without its token', PopupInit, guards.PopupInit, { type: 'cpe:popup:init', session: 's', intent: { paymentIntentId: 'pi' } }],
      ['wallet approval, no token', WalletApproval, guards.WalletApproval, { scheme: 'visa', last4: '4242', origins: [] }],
    ];
    for (const [name, schema, guard, value] of cases) assert.equal(conforms(guard, value), z.safeParse(schema, value).success, name);
    // Not all refusals: the valid samples pass both.
    assert.deepEqual(cases.filter(([, , guard, value]) => conforms(guard, value)).map(([name]) => name), ['init', 'request', 'focus params', 'address', 'field value', 'wallet request', 'popup init']);
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

  it('are typed with their schemas: conforms narrows to the schema\'s type with no type given by the caller', () => {
    const value: unknown = JSON.parse('{"cpe":1,"type":"hello","session":"abc","height":148}');
    // Compiles only because the guard carries Hello's type (typecheck is the real test here).
    const session: string | undefined = conforms(guards.Hello, value) ? value.session : undefined;
    assert.equal(session, 'abc');
    const detail: unknown = { height: 12 };
    const height: number | undefined = conforms(guards.EVENTS.resize, detail) ? detail.height : undefined;
    assert.equal(height, 12);
  });

  it('the relative-URL pattern is the SDK check', () => {
    for (const url of ['/api/a', 'api/a', '?x=1', 'a:b/'.slice(2)]) assert.equal(isRelativeUrl(url), true, url);
    for (const url of ['', 'https://x.example/a', 'javascript:alert(1)', '//x.example', '\\\\x', 'HTTP://x']) assert.equal(isRelativeUrl(url), false, url);
  });
});

/** Files reached at run time from `entry` (type-only imports skipped) that import zod, with the path that reached them. */
function zodImporters(entry: string): { seen: number; offenders: string[] } {
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
  visit(new URL(entry, root), entry);
  return { seen: seen.size, offenders };
}

describe('no zod at run time in browser code (type-only imports are fine)', () => {
  it('protocol/runtime/ imports neither zod nor protocol/schemas/ at run time: the zod-free half of the protocol', () => {
    const folder = new URL('../../protocol/runtime/', import.meta.url);
    const files = readdirSync(folder).filter((name) => name.endsWith('.ts'));
    assert.ok(files.length > 10, 'found the runtime files');
    for (const name of files) {
      const text = readFileSync(new URL(name, folder), 'utf8');
      const runtimeImports = [...text.matchAll(/^\s*(?:import|export)\s+(?!type\b)[^'";]*?from\s+'([^']+)'/gm)].map((m) => m[1]!);
      assert.deepEqual(runtimeImports.filter((spec) => /^zod(\/|$)/.test(spec) || spec.includes('/schemas/')), [], name);
    }
  });


  it('the merchant-side SDK (components/) imports none, directly or through protocol/', () => {
    const { seen, offenders } = zodImporters('components/index.ts');
    assert.ok(seen > 10, 'walked the SDK');
    assert.deepEqual(offenders, []);
  });

  it('nor does any frame app (iframe-app/*/main.ts): they validate with the same generated guards', () => {
    const apps = readdirSync(new URL('../../iframe-app/', import.meta.url), { withFileTypes: true }).filter((d) => d.isDirectory() && existsSync(new URL(`../../iframe-app/${d.name}/main.ts`, import.meta.url)));
    assert.ok(apps.length >= 5, 'found the frame apps');
    for (const app of apps) {
      const { seen, offenders } = zodImporters(`iframe-app/${app.name}/main.ts`);
      assert.ok(seen > 3, `walked ${app.name}`);
      assert.deepEqual(offenders, [], app.name);
    }
  });
});
