import type { arrange } from './arrange.ts';
import type { applyLanguage, dialogTexts, pageTexts } from './texts.ts';
import type { applyTheme } from './theme.ts';

/**
 * What the card form page's first-paint script (first-paint.ts, classic, before the first paint)
 * lends the page's module: in that page's build, arrange.ts, theme.ts and texts.ts are card-form/page-*.ts,
 * which call these, so the page carries one copy of each (about 1 KB gz), not two.
 */
export type FirstPaintApi = { arrange: typeof arrange; applyTheme: typeof applyTheme; pageTexts: typeof pageTexts; dialogTexts: typeof dialogTexts; applyLanguage: typeof applyLanguage };

export const lent = (): FirstPaintApi => (window as unknown as { cpeFirstPaint: FirstPaintApi }).cpeFirstPaint;
