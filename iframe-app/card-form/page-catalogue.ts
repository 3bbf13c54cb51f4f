import type { Catalogue } from '../../i18n/en.ts';
import { pageTexts } from '../shared/texts.ts';

/**
 * The card form page's own texts, in its language: the service renders them into every card form
 * page (ssr/render.ts, `CARD_FORM_TEXTS`). In that page's build this module stands for i18n/en.ts
 * (vite.config.ts, `cardFormPage`): the page needs no English catalogue of its own (about 1 KB gz).
 */
export default (pageTexts()?.catalogue ?? {}) as Catalogue;
