import type { CardField, ChangeState } from '../../protocol/schemas/bridge.ts';
import { CARD_FIELDS } from '../../protocol/runtime/frame-address.ts';
import { dispatchCpeEvent } from '../events.ts';
import { FrameHost, px, type HostController } from '../internal/frame-host.ts';
import { Frame } from '../internal/frame.ts';
import { CardFieldsElementOptions as schema } from '../../protocol/runtime/guards.ts';
import { resolveTarget, type CardFieldsElementOptions } from '../internal/options.ts';
import type { OptionProperties } from '../internal/properties.ts';
import { sheet } from '../internal/styles.ts';
import styles, { fieldBoxStyles } from './card-fields.styles.ts';

const TITLES: Record<CardField, string> = { number: 'Card number', expiry: 'Expiry date', cvc: 'Security code', name: 'Name on card' };

/** Minimum height of each field's box in CSS pixels (one input with its label and focus ring). */
export const FIELD_MIN_HEIGHT = 44;

/**
 * Separate hosted fields: number, expiry, security code and name (the spec's four fields, all
 * required: the service refuses a card without the cardholder's name), each in its own frame
 * inside its own mount target, sharing the element's settings. Tokenising gathers the values among
 * the frames on the service origin (the group uuid in their addresses names their channel); none
 * passes through this page.
 *
 * Mount targets, in this order of precedence:
 * - factory option `fields: { number, expiry, cvc, name }`: Elements, or selectors searched inside
 *   `element` when it is given, else in `resolveOptions.within` (default the document);
 * - else the descendants `[data-cpe-field="number" | "expiry" | "cvc" | "name"]` of the `element`
 *   container, of `<cpe-card-fields>` itself when written in HTML, or (with
 *   `resolveOptions.autoDiscover`) of `within` / the document.
 * All four targets are required: a missing one is an SdkError naming it (`fields.name`) and the fix.
 *
 * The `<cpe-card-fields>` element is `display: contents`: from a factory it is appended to the
 * `element` container, or to the number field's target. In HTML:
 *
 *   <cpe-card-fields>
 *     <div data-cpe-field="number"></div><div data-cpe-field="expiry"></div><div data-cpe-field="cvc"></div>
 *     <div data-cpe-field="name"></div>
 *   </cpe-card-fields>
 *
 * `cpe:change` carries the combined state (`complete` when every field is) and `field`, the one that changed.
 *
 * Every attribute is also a property of the same name in camelCase (`el.language = 'fr'`), which
 * reads its default while unset and re-renders the frames when set.
 *
 * @tagname cpe-card-fields
 * @summary Hosted card fields (ElementsApi).
 * @attr {string} [language=en] - BCP 47 language of the frame; an unknown one falls back to English (property `language`).
 * @attr {'auto' | 'light' | 'dark'} [theme=auto] - Colour scheme: `auto` follows the page and the system (property `theme`).
 * @attr {string} identifier - Instance identifier (property `identifier`).
 * @attr {'all' | 'detected' | 'none'} [card-schemes-display=detected] - Scheme badges: every accepted scheme, the one typed, or none (property `cardSchemesDisplay`).
 * @attr {string | number} width - CSS width (a number is pixels), default the container's of each field (property `width`).
 * @attr {number} height - Height in pixels to reserve for each field, at least 44 (property `height`).
 * @fires {CustomEvent<ChangeState>} cpe:change - The form changed: `{complete, empty, scheme, invalid, field}`, combined, never digits.
 * @fires {CustomEvent<{}>} cpe:processing:start - `tokenise()` started.
 * @fires {CustomEvent<{}>} cpe:processing:end - `tokenise()` ended.
 */
export class CpeCardFields extends FrameHost {
  static observedAttributes = ['language', 'theme', 'identifier', 'card-schemes-display', 'width', 'height'];

  constructor() {
    super('cardFieldsElement', schema, styles);
    this.shadowRoot!.append(document.createElement('slot'));
    fieldFrames(this);
  }
}

/**
 * The card fields' frames: one per field, each in a box of its own inside its mount target, and
 * their changes combined into the element's `cpe:change`.
 */
function fieldFrames(host: CpeCardFields): void {
  const where = 'cardFieldsElement';
  let targets: [CardField, Element][] = [];
  let frames: Frame[] = [];
  let states: Partial<Record<CardField, ChangeState>> = {};
  host.addController({
    /** Finds the four targets (an SdkError names a missing one); a factory's element goes into `element`, or beside the number field. */
    hostInit(_controller, { element, fields, resolveOptions: resolve = {} }, factory) {
      const scope = !factory ? host : element ? resolveTarget(where, 'element', element, resolve) : undefined;
      targets = CARD_FIELDS.map((field) => [field, resolveTarget(where, `fields.${field}`, fields?.[field], resolve, `[data-cpe-field="${field}"]`, scope)]);
      if (!host.isConnected) (scope ?? targets[0]![1]).append(host);
    },
    hostFrames(controller, { height = 0, width, language, theme = 'auto', cardSchemesDisplay }) {
      const group = crypto.randomUUID();
      states = {};
      return (frames = targets.map(([field, target]) => {
        const box = document.createElement('div');
        box.style.minHeight = `${Math.max(height, FIELD_MIN_HEIGHT)}px`;
        if (width !== undefined) box.style.width = px(width);
        const root = box.attachShadow({ mode: 'open' });
        root.adoptedStyleSheets = [sheet(fieldBoxStyles)];
        target.append(box);
        const frame = new Frame(host, controller, 'field', language, { theme, field, group, marks: cardSchemesDisplay }, TITLES[field]).place(root);
        frame.box = box;
        return frame;
      }));
    },
    hostExtra: (extra) => ({ ...extra, fields: targets.map(([field]) => field) }),
    hostFrameEvent(frame, name, detail) {
      if (name !== 'change') return;
      const state = detail as ChangeState;
      const field = state.field ?? targets[frames.indexOf(frame)]?.[0];
      if (!field) return;
      states[field] = state;
      const all = targets.map(([f]) => states[f]);
      dispatchCpeEvent(host, 'cpe:change', {
        complete: all.every((s) => s?.complete),
        empty: all.every((s) => !s || s.empty),
        scheme: states.number?.scheme ?? 'unknown',
        invalid: all.flatMap((s) => s?.invalid ?? []),
        field,
      });
    },
  } satisfies HostController<CardFieldsElementOptions>);
}

/** `<cpe-card-fields>`'s option properties. */
export type CpeCardFieldsProperties = OptionProperties<CardFieldsElementOptions, 'language' | 'theme' | 'cardSchemesDisplay'>;
export interface CpeCardFields extends CpeCardFieldsProperties {}
