import { lent, type FirstPaintApi } from '../shared/first-paint-api.ts';

export type { Texts } from '../shared/texts.ts';

/** shared/texts.ts in the card form page's build: the first-paint script's (vite.config.ts, `cardFormPage`). */
export const pageTexts: FirstPaintApi['pageTexts'] = (...args) => lent().pageTexts(...args);
export const dialogTexts: FirstPaintApi['dialogTexts'] = (...args) => lent().dialogTexts(...args);
export const applyLanguage: FirstPaintApi['applyLanguage'] = (...args) => lent().applyLanguage(...args);
