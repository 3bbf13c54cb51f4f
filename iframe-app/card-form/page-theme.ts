import { lent, type FirstPaintApi } from '../shared/first-paint-api.ts';

/** shared/theme.ts in the card form page's build: the first-paint script's (vite.config.ts, `cardFormPage`). */
export const applyTheme: FirstPaintApi['applyTheme'] = (...args) => lent().applyTheme(...args);
