import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { formatAmount, minorDigits } from '../../api/iso-codes.ts';

describe('amounts as shoppers read them', () => {
  it('formats in minor units, by the currency and the locale', () => {
    // Intl separates a code or a trailing symbol with a no-break space.
    const plain = (text: string) => text.replace(/\u00a0/g, ' ');
    assert.equal(formatAmount(1234, 'GBP'), '£12.34');
    assert.equal(formatAmount(1234, 'JPY'), 'JP¥1,234');
    assert.equal(plain(formatAmount(1234, 'KWD')), 'KWD 1.234');
    assert.equal(plain(formatAmount(1234, 'EUR', 'de')), '12,34 €');
    assert.equal(minorDigits('JPY'), 0);
  });

  it("makes Intl's formatter once per locale and currency, and keeps a bounded number", () => {
    const Real = Intl.NumberFormat;
    let made = 0;
    Intl.NumberFormat = function (...args: ConstructorParameters<typeof Intl.NumberFormat>) {
      made++;
      return new Real(...args);
    } as unknown as typeof Intl.NumberFormat;
    try {
      formatAmount(500, 'CHF', 'fr-CH');
      const first = made;
      assert.ok(first > 0);
      for (let i = 0; i < 50; i++) formatAmount(500 + i, 'CHF', 'fr-CH');
      assert.equal(made, first, 'formatters made again');
      // A caller's many locales (a challenge page's is the address's language tag) do not grow it without end.
      for (let i = 0; i < 600; i++) formatAmount(100, 'GBP', `en-x-t${i}`);
      made = 0;
      formatAmount(100, 'GBP', 'en-x-t0');
      assert.equal(made, 1, 'the oldest locale was let go');
    } finally {
      Intl.NumberFormat = Real;
    }
  });
});
