import type { Layout } from '../../protocol/runtime/frame-address.ts';
import { FrameHost } from '../internal/frame-host.ts';
import { hostedFrame } from '../internal/hosted-frame.ts';
import { CardElementOptions as schema } from '../../protocol/runtime/guards.ts';
import type { CardElementOptions } from '../internal/options.ts';
import type { OptionProperties } from '../internal/properties.ts';
import styles from './card.styles.ts';
import { formHeight } from './form-height.ts';

/**
 * Minimum heights in CSS pixels: a `height` option below them is raised to them. The element reserves
 * the form's own height at once (form-height.ts), so the page does not jump when the form appears;
 * the frame grows past it to fit its content (validation messages included). Minimum width: 200 px
 * (or the container's width if narrower).
 */
export const LAYOUT_MIN_HEIGHT: Record<Layout, number> = { stack: 180, 'row-minimal': 48, 'row-compact': 64, row: 72, 'column-compact': 220, column: 280 };

/**
 * The hosted card form: number, expiry, security code and name in one frame of the service.
 *
 * From a factory: `controller.cardElement({ element: '#pay', layout: 'row' })` returns a `<cpe-card>`
 * that `init()` appends inside the `element` container (with `resolveOptions.autoDiscover` and no
 * `element`, the first `#cpe-card` or `[data-cpe-card]`). In HTML, the element is its own target:
 *
 *   <cpe-elements pub-key="pk_…" intent-url="/api/intent">
 *     <cpe-card layout="row" language="fr" theme="dark" card-schemes-display="detected"></cpe-card>
 *   </cpe-elements>
 *
 * Every attribute is also a property of the same name in camelCase (`el.layout = 'stack'`), which
 * reads its default while unset and re-renders the frame when set.
 *
 * @tagname cpe-card
 * @summary Hosted card form (ElementsApi).
 * @attr {'stack' | 'row-minimal' | 'row-compact' | 'row' | 'column-compact' | 'column'} [layout=row] - The form's layout (property `layout`).
 * @attr {string} [language=en] - BCP 47 language of the frame; an unknown one falls back to English (property `language`).
 * @attr {'auto' | 'light' | 'dark'} [theme=auto] - Colour scheme: `auto` follows the page and the system (property `theme`).
 * @attr {string} identifier - Instance identifier (property `identifier`).
 * @attr {'all' | 'detected' | 'none'} [card-schemes-display=detected] - Scheme badges: every accepted scheme, the one typed, or none (property `cardSchemesDisplay`).
 * @attr {string | number} width - CSS width (a number is pixels), default the container's (property `width`).
 * @attr {number} height - Height in pixels to reserve, never below the layout's minimum (property `height`).
 * @fires {CustomEvent<ChangeState>} cpe:change - The form changed: `{complete, empty, scheme, invalid}`, never digits.
 * @fires {CustomEvent<{}>} cpe:processing:start - `tokenise()` started.
 * @fires {CustomEvent<{}>} cpe:processing:end - `tokenise()` ended.
 */
export class CpeCard extends FrameHost {
  static observedAttributes = ['layout', 'language', 'theme', 'identifier', 'card-schemes-display', 'width', 'height'];
  constructor() {
    super('cardElement', schema, styles);
    hostedFrame<CardElementOptions>(this, 'cardElement', '#cpe-card, [data-cpe-card]', 'card-form', 'Card payment', ({ layout = 'row', height = 0, theme = 'auto', cardSchemesDisplay }, host) => [
      Math.max(height, LAYOUT_MIN_HEIGHT[layout], formHeight(layout, host.clientWidth, cardSchemesDisplay, getComputedStyle(host))),
      { layout, theme, marks: cardSchemesDisplay },
    ]);
  }
}

/** `<cpe-card>`'s option properties. */
export type CpeCardProperties = OptionProperties<CardElementOptions, 'layout' | 'language' | 'theme' | 'cardSchemesDisplay'>;
export interface CpeCard extends CpeCardProperties {}
