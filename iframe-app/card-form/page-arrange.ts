import { lent, type FirstPaintApi } from '../shared/first-paint-api.ts';

/** shared/arrange.ts in the card form page's build: the first-paint script's (vite.config.ts, `cardFormPage`). */
export const arrange: FirstPaintApi['arrange'] = (...args) => lent().arrange(...args);
