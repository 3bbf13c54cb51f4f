import assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, it } from 'node:test';
import * as z from 'zod/mini';
import { WalletName } from '../../api/payments.ts';
import { catalogueOf, LANGUAGES } from '../../i18n/catalogues.ts';
import { PAYMENT_METHODS } from '../../protocol/runtime/frame-address.ts';
import { FrameParams } from '../../protocol/schemas/frame-url.ts';
import { WalletRequest } from '../../protocol/schemas/wallet.ts';
import { WALLET_BUTTONS } from '../../protocol/wallets/buttons.ts';
import { WALLET_IDS, WALLET_METHODS, WALLETS, walletOfMethod } from '../../protocol/wallets/index.ts';

const root = new URL('../..', import.meta.url).pathname;

/** Every .ts file under `dir`. */
function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? sources(path) : path.endsWith('.ts') ? [path] : [];
  });
}

describe('wallets are a registry (protocol/wallets/): a folder and a row each', () => {
  it('every part takes its wallets from the registry: methods, addresses, requests, tokens', () => {
    assert.deepEqual(WALLET_IDS, Object.keys(WALLETS));
    assert.deepEqual(Object.keys(WALLET_BUTTONS), WALLET_IDS, 'a button for every wallet');
    assert.deepEqual(PAYMENT_METHODS, ['card', ...WALLET_METHODS]);
    for (const id of WALLET_IDS) {
      assert.equal(walletOfMethod(`wallet-${id}`), id);
      assert.equal(z.safeParse(WalletRequest, { wallet: id }).success, true, `the sheet's request takes ${id}`);
      assert.equal(z.safeParse(FrameParams, { pk: 'pk_test_1', lang: 'en', wallet: id }).success, true, `the button frame's address takes ${id}`);
      assert.equal(WalletName.safeParse(id).success, true, `a token's payment_method.wallet takes ${id}`);
    }
    assert.equal(z.safeParse(WalletRequest, { wallet: 'c' }).success, false);
    assert.equal(new Set(Object.values(WALLETS).map((w) => w.name)).size, WALLET_IDS.length, 'names are unique');
  });

  it("every language has a label for every button type of every wallet (the frame's walletLabel keys)", async () => {
    for (const lang of LANGUAGES) {
      const { walletTypes } = await catalogueOf(lang);
      for (const [id, look] of Object.entries(WALLET_BUTTONS) as [string, { types: readonly string[]; labels?: Record<string, string> }][])
        for (const type of look.types) assert.ok((look.labels?.[type] ?? type) in walletTypes, `${lang}: wallet ${id}'s ${type}`);
    }
  });

  it("no part spells the wallets out again ('a' | 'b', === 'a', 'wallet-a' ? …)", () => {
    const spelt = /'a' \| 'b'|\['a', 'b'\]|wallet === '[ab]'|=== 'wallet-[ab]'|'Wallet [AB]'/;
    const found = ['components', 'iframe-app', 'server', 'protocol', 'api']
      .flatMap((dir) => sources(join(root, dir)))
      .filter((file) => !file.includes('/protocol/wallets/') && !file.endsWith('/protocol/runtime/guards.ts'))
      .flatMap((file) => readFileSync(file, 'utf8').split('\n').map((line, i) => [file, i + 1, line] as const))
      .filter(([, , line]) => spelt.test(line) && !/^\s*(\*|\/\/)/.test(line))
      .map(([file, n, line]) => `${relative(root, file)}:${n}: ${line.trim()}`);
    assert.deepEqual(found, []);
  });
});
