import { html, nothing } from 'lit';
import type { TokeniseResult } from '../../protocol/schemas/bridge.ts';
import { SCHEME_NAMES } from '../../protocol/runtime/card-schemes.ts';
import type { FieldMessage } from '../../protocol/schemas/field-channel.ts';
import { FIELD_CHANNEL_VERSION, fieldChannelName } from '../../protocol/runtime/field-channel-name.ts';
import { FieldMessage as FieldMessageGuard } from '../../protocol/runtime/guards.ts';
import { conforms } from '../../protocol/runtime/json-guard.ts';
import { normalise, problemOf, type CardField, type Scheme, type Values } from '../shared/card.ts';
import { CardInputs, type FrameError } from '../shared/card-inputs.ts';

type Sibling = Exclude<CardField, 'number'>;
const SIBLINGS: readonly Sibling[] = ['expiry', 'cvc', 'name'];
type Answer = { value: string; valid: boolean };

/** Hidden inputs of the number frame that catch the browser's card autofill for the other frames. */
const AUTOFILL = [
  ['cc-exp', 'expiry'],
  ['cc-exp-month', 'month'],
  ['cc-exp-year', 'year'],
  ['cc-csc', 'cvc'],
  ['cc-name', 'name'],
] as const;

/**
 * `<cpe-card-field field group>`: one field of `<cpe-card-fields>` in its own frame. The four frames
 * of one element share a BroadcastChannel named from `group` (protocol/schemas/field-channel.ts); card
 * values cross only that channel, never the merchant page.
 *
 * - The number frame tokenises: it asks its siblings for their values (`collect`), waits at most
 *   `collectTimeoutMs` for all three (else `missing_field` naming the first one absent), validates
 *   everything and posts to /frames/tokenise. A refusal naming another field is shown in that frame.
 * - The number frame tells the others the detected scheme (the security code's length follows it).
 * - `reset` in any frame clears the whole group.
 * - The number frame holds hidden `cc-exp`/`cc-csc`/`cc-name` inputs (aria-hidden, tabindex -1): what
 *   the browser autofills there is relayed to the sibling frames and cleared.
 */
export class CardFieldElement extends CardInputs {
  static override properties = { ...CardInputs.properties, field: { reflect: true }, group: {} };

  field: CardField = 'number';
  group = '';
  collectTimeoutMs = 1500;
  /** The sibling frames the element mounted (config `extra.fields`); all three unless it says otherwise. */
  siblings: readonly Sibling[] = SIBLINGS;
  #channel?: BroadcastChannel;
  #answers?: (message: { id: string; field: CardField } & Answer) => void;
  #month = '';
  #year = '';

  /** `extra.fields`: which fields the element mounted (a card fields element without a name field). */
  override applyExtra(extra: Record<string, unknown>): void {
    const fields = extra.fields;
    if (Array.isArray(fields)) this.siblings = SIBLINGS.filter((f) => fields.includes(f));
  }

  override get fields(): readonly CardField[] {
    return [this.field];
  }

  override connectedCallback(): void {
    super.connectedCallback();
    if (!this.#channel && this.group) {
      this.#channel = new BroadcastChannel(fieldChannelName(this.group));
      this.#channel.onmessage = (event) => this.#receive(event.data);
    }
  }

  override disconnectedCallback(): void {
    super.disconnectedCallback();
    this.#channel?.close();
    this.#channel = undefined;
  }

  #post(message: FieldMessage): void {
    this.#channel?.postMessage(message);
  }

  #receive(data: unknown): void {
    if (!conforms(FieldMessageGuard, data)) return;
    const message = data;
    const field = this.field;
    switch (message.type) {
      case 'collect':
        if (field === 'number') return;
        this.#learnScheme(message.scheme);
        this.touched.add(field);
        this.refresh(field);
        this.emitState();
        this.#post({ cpe: FIELD_CHANNEL_VERSION, type: 'value', id: message.id, field, value: this.values[field], valid: !this.problem(field) });
        return;
      case 'value':
        this.#answers?.(message);
        return;
      case 'scheme':
        if (field === 'number') return;
        this.#learnScheme(message.scheme);
        if (field === 'cvc') {
          if (this.values.cvc) this.setValue('cvc', this.values.cvc);
          this.refresh('cvc');
          this.emitState();
        }
        return;
      case 'fill':
        if (message.field !== field) return;
        this.setValue(field, message.value);
        this.refresh(field, true);
        this.emitState();
        return;
      case 'error':
        if (message.field === field) this.showError(field, message.message);
        return;
      case 'reset':
        if (this.values[field] || this.shown[field]) super.reset();
        return;
    }
  }

  #learnScheme(scheme: string): void {
    this.outerScheme = scheme !== 'unknown' && (SCHEME_NAMES as string[]).includes(scheme) ? (scheme as Scheme) : undefined;
  }

  protected override schemeChanged(): void {
    this.#post({ cpe: FIELD_CHANNEL_VERSION, type: 'scheme', scheme: this.scheme ?? 'unknown' });
  }

  override reset(): void {
    super.reset();
    this.#post({ cpe: FIELD_CHANNEL_VERSION, type: 'reset' });
  }

  override showError(field: CardField, message: string): void {
    if (field === this.field) super.showError(field, message);
    else this.#post({ cpe: FIELD_CHANNEL_VERSION, type: 'error', field, message });
  }

  /** The siblings' values, over the channel; rejects with `missing_field` when one does not answer. */
  collect(): Promise<Partial<Record<Sibling, Answer>>> {
    const id = crypto.randomUUID();
    const got: Partial<Record<Sibling, Answer>> = {};
    return new Promise<Partial<Record<Sibling, Answer>>>((resolve, reject) => {
      const timer = setTimeout(() => {
        this.#answers = undefined;
        const missing = this.siblings.filter((f) => !got[f]);
        reject({
          code: 'missing_field',
          message: `The ${missing.map((f) => this.catalogue[f]).join(', ')} field did not answer: mount every field of cpe-card-fields and wait for them to be ready.`,
          field: missing[0],
        } satisfies FrameError);
      }, this.collectTimeoutMs);
      this.#answers = (answer) => {
        if (answer.id !== id || answer.field === 'number') return;
        got[answer.field] = { value: answer.value, valid: answer.valid };
        if (this.siblings.every((f) => got[f])) {
          clearTimeout(timer);
          this.#answers = undefined;
          resolve(got);
        }
      };
      this.#post({ cpe: FIELD_CHANNEL_VERSION, type: 'collect', id, scheme: this.scheme ?? 'unknown' });
    });
  }

  protected override async doTokenise(): Promise<TokeniseResult> {
    if (this.field !== 'number') throw { code: 'wrong_frame', message: 'Tokenise is answered by the card number frame of cpe-card-fields.' } satisfies FrameError;
    const bad = this.validateAll();
    this.emitState();
    const answers = await this.collect();
    if (bad) throw { code: 'invalid_card', message: this.shown.number ?? this.catalogue.numberInvalid, field: 'number' } satisfies FrameError;
    const values: Values = { number: this.values.number, expiry: '', cvc: '', name: '' };
    for (const f of this.siblings) {
      const raw = answers[f]!.value;
      values[f] = normalise(f, raw, raw.length, this.scheme).value;
      const problem = problemOf(f, values[f], this.scheme);
      if (problem || !answers[f]!.valid) throw { code: 'invalid_card', message: this.catalogue[problem ?? 'refused'], field: f } satisfies FrameError;
    }
    return this.submit(values);
  }

  #onFill = (event: Event) => {
    const input = event.target as HTMLInputElement;
    const kind = input.dataset.fill as (typeof AUTOFILL)[number][1];
    const value = input.value;
    if (!value) return;
    if (kind === 'month') this.#month = value;
    else if (kind === 'year') this.#year = value;
    else this.#post({ cpe: FIELD_CHANNEL_VERSION, type: 'fill', field: kind, value });
    if (this.#month && this.#year) {
      this.#post({ cpe: FIELD_CHANNEL_VERSION, type: 'fill', field: 'expiry', value: `${this.#month.padStart(2, '0')}/${this.#year.slice(-2)}` });
      this.#month = this.#year = '';
    }
    setTimeout(() => (input.value = ''));
  };

  override render() {
    const hidden =
      this.field === 'number'
        ? AUTOFILL.map(([ac, kind]) => html`<input class="autofill" tabindex="-1" aria-hidden="true" autocomplete=${ac} name=${ac} data-fill=${kind} @input=${this.#onFill} @change=${this.#onFill} />`)
        : nothing;
    return html`${this.renderBadgeStrip()}
      <div class="grid">${this.renderField(this.field)}</div>
      ${hidden}`;
  }
}
if (!customElements.get('cpe-card-field')) customElements.define('cpe-card-field', CardFieldElement);
