import { FrameHost } from '../internal/frame-host.ts';
import { cardFormFrame } from '../internal/card-form-frame.ts';
import { CardElementOptions as schema } from '../../protocol/runtime/guards.ts';
import type { CardElementOptions } from '../internal/options.ts';
import type { OptionProperties } from '../internal/properties.ts';
import styles from './card.styles.ts';

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
 * @attr {number} height - Height in pixels to reserve until the form is shown, never below the form's own height (property `height`).
 * @fires {CustomEvent<ChangeState>} cpe:change - The form changed: `{complete, empty, scheme, invalid}`, never digits.
 * @fires {CustomEvent<{}>} cpe:processing:start - `tokenise()` started.
 * @fires {CustomEvent<{}>} cpe:processing:end - `tokenise()` ended.
 */
export class CpeCard extends FrameHost {
  static observedAttributes = ['layout', 'language', 'theme', 'identifier', 'card-schemes-display', 'width', 'height'];
  constructor() {
    super('cardElement', schema, styles);
    cardFormFrame<CardElementOptions>(this, 'cardElement', '#cpe-card, [data-cpe-card]', 'card-form', 'Card payment', 'row');
  }
}

/** `<cpe-card>`'s option properties. */
export type CpeCardProperties = OptionProperties<CardElementOptions, 'layout' | 'language' | 'theme' | 'cardSchemesDisplay'>;
export interface CpeCard extends CpeCardProperties {}
