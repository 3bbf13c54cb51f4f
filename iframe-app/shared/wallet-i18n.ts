import en, { type WalletCatalogue } from '../i18n/wallet/en.ts';
import { resolveLanguage } from './i18n.ts';

export type { WalletCatalogue };
export { en as walletEn };

/** The wallet frames' catalogues (i18n/wallet/<lang>.ts), one chunk each; English bundled. */
const LOADERS: Record<string, () => Promise<{ default: WalletCatalogue }>> = {
  cy: () => import('../i18n/wallet/cy.ts'),
  fr: () => import('../i18n/wallet/fr.ts'),
  de: () => import('../i18n/wallet/de.ts'),
  es: () => import('../i18n/wallet/es.ts'),
  it: () => import('../i18n/wallet/it.ts'),
  nl: () => import('../i18n/wallet/nl.ts'),
  ar: () => import('../i18n/wallet/ar.ts'),
};

/** The wallet texts for a language tag: English when the language is unknown or its chunk fails to load. */
export async function loadWalletCatalogue(tag: string): Promise<WalletCatalogue> {
  const lang = resolveLanguage(tag);
  const load = lang && LOADERS[lang];
  if (!load) return en;
  try {
    return (await load()).default;
  } catch {
    return en;
  }
}
