import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { CATALOGUES } from '../../i18n/catalogues.ts';
import en, { type Catalogue } from '../../i18n/en.ts';
import { REASONS } from '../../iframe-app/shared/texts.ts';

/**
 * The rules of docs/shopper-texts.md that a machine can check, on every sentence that says why a
 * payment did not go through (`REASONS`, the texts pay(), the Flows and <cpe-payment> show) and the
 * element's own lines, in every catalogue.
 */
const SAID_TO_SHOPPER = [...new Set<keyof Catalogue>([...Object.values(REASONS), 'verifyFailed', 'loadFailed', 'unavailable'])];
const NOTHING_PAID = ['authFailed', 'authCancelled', 'walletCancelled', 'declined'] as const;

const all = async (): Promise<[string, Catalogue][]> => [
  ['en', en],
  ...(await Promise.all(Object.entries(CATALOGUES).map(async ([lang, load]) => [lang, (await load()).default] as [string, Catalogue]))),
];

describe('texts a shopper reads (docs/shopper-texts.md)', () => {
  it('no jargon, code or placeholder in any language: no 3-D Secure, no status or error code, no {…}, at most one colon', async () => {
    const found: string[] = [];
    for (const [lang, catalogue] of await all())
      for (const key of SAID_TO_SHOPPER) {
        const text = catalogue[key] as string;
        if (/3-?D ?S|\b[a-z]+_[a-z_]+\b|[{}]|HTTP|\b[45]\d\d\b/i.test(text) || (text.match(/[:：]/g) ?? []).length > 1) found.push(`${lang}.${key}: ${text}`);
      }
    assert.deepEqual(found, []);
  });

  it('one wording per situation: in each language, no two situations say the same sentence', async () => {
    for (const [lang, catalogue] of await all()) {
      const texts = SAID_TO_SHOPPER.map((key) => catalogue[key]);
      assert.equal(new Set(texts).size, texts.length, lang);
    }
  });

  it('in English: what happened, then what to do (two sentences, each with its full stop); "nothing was paid" where nothing was', () => {
    const notThrough = Object.values(REASONS).filter((key) => key !== 'paid');
    for (const key of notThrough) assert.match(en[key], /^[A-Z][^.]*\. [A-Z][^.]*\.$/, key);
    for (const key of NOTHING_PAID) assert.match(en[key], /nothing was paid/, key);
    assert.doesNotMatch(notThrough.map((key) => en[key]).join(' '), /\b(error|failed|invalid)\b|!/i);
    assert.doesNotMatch(en[REASONS.payment_intent_paid], /nothing was paid/);
  });
});
