import { expect } from '@open-wc/testing';
import { CATALOGUES } from '../../i18n/catalogues.ts';
import { applyLanguage, en, LANGUAGES, loadCatalogue, type Catalogue } from '../../iframe-app/shared/i18n.ts';

/** Stripe's languages (its Elements' `locale` list) and the ones this issue asked for besides. */
const STRIPE = 'ar bg cs da de el en en-GB es es-419 et fi fil fr fr-CA he hr hu id it ja ko lt lv ms mt nb nl pl pt pt-BR ro ru sk sl sv th tr vi zh zh-HK zh-TW'.split(' ');
const MORE = 'cy fa ur uk ca hi bn sr is ga'.split(' ');
const RTL = ['ar', 'fa', 'he', 'ur'];

/** Every key path of a catalogue (`walletTypes.buy`, `sheetCards.visa`), with its value. */
const entries = (catalogue: object, prefix = ''): [string, unknown][] =>
  Object.entries(catalogue).flatMap(([k, v]) => (v && typeof v === 'object' ? entries(v, `${prefix}${k}.`) : [[`${prefix}${k}`, v] as [string, unknown]]));
const placeholders = (text: string) => (text.match(/\{\w+\}/g) ?? []).sort();

/** The catalogue files this page has fetched (each language is its own module). */
const fetched = () =>
  performance
    .getEntriesByType('resource')
    .map((e) => new URL(e.name).pathname)
    .filter((p) => p.startsWith('/i18n/') && !p.endsWith('/en.ts') && !p.endsWith('/catalogues.ts'));

describe('language catalogues', () => {
  afterEach(() => applyLanguage('en', en));

  it('a catalogue is fetched only when its language is used (English is bundled)', async () => {
    expect(fetched()).to.deep.equal([]);
    await loadCatalogue('en');
    await loadCatalogue('en-GB');
    expect(fetched()).to.deep.equal([]);
    await loadCatalogue('de');
    expect(fetched()).to.deep.equal(['/i18n/de.ts']);
    // A regional catalogue holds only what differs from its language's, which comes with it.
    await loadCatalogue('fr-CA');
    expect(fetched()).to.deep.equal(['/i18n/de.ts', '/i18n/fr-CA.ts', '/i18n/fr.ts']);
  });

  it(`at least fifty, Stripe's set and ${MORE.join(', ')} among them`, () => {
    expect(LANGUAGES.length).to.be.at.least(50);
    for (const tag of [...STRIPE, ...MORE]) expect(LANGUAGES.includes(tag) || tag === 'en-GB', tag).to.equal(true);
    expect(Object.keys(CATALOGUES)).not.to.include('en');
  });

  it('every catalogue has every key of English, each a text with the same {placeholders}; right to left exactly for Arabic, Hebrew, Persian, Urdu', async () => {
    const english = new Map(entries(en));
    for (const tag of LANGUAGES) {
      const { lang, catalogue } = await loadCatalogue(tag);
      expect(lang, tag).to.equal(tag);
      const own = new Map(entries(catalogue));
      expect([...own.keys()].sort(), tag).to.deep.equal([...english.keys()].sort());
      for (const [key, value] of own) {
        expect(typeof value === 'string' && value.trim().length > 0, `${tag} ${key}`).to.equal(true);
        expect(placeholders(value as string), `${tag} ${key}`).to.deep.equal(placeholders(english.get(key) as string));
      }
      expect(catalogue.dir, tag).to.equal(RTL.includes(tag) ? 'rtl' : 'ltr');
      if (!tag.startsWith('en')) expect([catalogue.number, catalogue.cvc, catalogue.pay], tag).not.to.deep.equal([en.number, en.cvc, en.pay]);
    }
  });

  it('a right-to-left language sets dir="rtl" on the frame document', async () => {
    for (const tag of RTL) {
      const { lang, catalogue } = await loadCatalogue(tag);
      applyLanguage(lang, catalogue as Catalogue);
      expect([document.documentElement.lang, document.documentElement.dir], tag).to.deep.equal([tag, 'rtl']);
    }
    const { lang, catalogue } = await loadCatalogue('he-IL');
    applyLanguage(lang, catalogue);
    expect(document.documentElement.dir).to.equal('rtl');
  });

  it('fallbacks: a region falls back to its language, an unknown language to English with a console warning', async () => {
    expect((await loadCatalogue('pt-PT')).lang).to.equal('pt');
    expect((await loadCatalogue('fr-CA')).lang).to.equal('fr-CA');
    expect((await loadCatalogue('de-AT')).lang).to.equal('de');
    const warn = console.warn;
    const warnings: unknown[][] = [];
    console.warn = (...args: unknown[]) => warnings.push(args);
    try {
      expect(await loadCatalogue('tlh-QO')).to.deep.equal({ lang: 'en', catalogue: en });
    } finally {
      console.warn = warn;
    }
    expect(String(warnings[0]?.[0])).to.contain('"tlh-QO"');
  });
});
