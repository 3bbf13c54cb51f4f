import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { test } from 'node:test';
import { ROUTES } from '../../api/routes.ts';
import { validateCard } from '../../server/payments/cards.ts';
import { outcomeOf, TEST_CARDS, walletTestCard } from '../../server/payments/test-cards.ts';
import { WALLET_TEST_CARD_CHOICES } from '../../protocol/runtime/wallet.ts';

/** The test card table (server/payments/test-cards.ts) is the one the README shows, and the wallet sheet's cards are its rows. */
const readme = readFileSync(resolve(import.meta.dirname, '../../README.md'), 'utf8');
const section = readme.slice(readme.indexOf('### Test cards'), readme.indexOf('### Routes'));

test('every test card number of the table is in the README, and behaves as its row', () => {
  for (const [outcome, card] of Object.entries(TEST_CARDS)) {
    for (const number of card.numbers) {
      assert.ok(section.includes(number.replace(/(\d{4})(?=\d)/g, '$1 ')), `${number} (${outcome}) is in the README's table`);
      assert.equal(validateCard({ number, exp_month: '12', exp_year: '2040', cvc: '123', name: 'A' }).outcome, outcome);
    }
  }
  assert.equal(outcomeOf('4242424242424242'), 'approve');
});

test("the wallet sheet's cards are rows of the table", () => {
  for (const choice of WALLET_TEST_CARD_CHOICES) assert.ok(validateCard({ number: walletTestCard(choice), exp_month: '12', exp_year: '2040', cvc: '123', name: 'A' }));
  assert.equal(outcomeOf(walletTestCard('declined')), 'decline');
});

test("every backend route of the operation table is in the README's route table", () => {
  const routes = readme.slice(readme.indexOf('### Routes'), readme.indexOf('### The Node client'));
  for (const [name, route] of Object.entries(ROUTES)) {
    if (route.auth !== 'licenceKey') continue;
    assert.ok(routes.includes(`\`${route.method.toUpperCase()} ${route.path}\``), `${name}: ${route.method.toUpperCase()} ${route.path}`);
  }
});
