import { LitElement, html, nothing, svg, type TemplateResult } from 'lit';
import type { CardSchemesDisplay, ChangeState, ColorScheme, FrameSession, TokeniseResult } from '../../protocol/schemas/bridge.ts';
import { TokeniseResult as TokeniseResultGuard } from '../../protocol/runtime/guards.ts';
import { conforms } from '../../protocol/runtime/json-guard.ts';
import type { Layout, Theme } from '../../protocol/schemas/frame-url.ts';
import { FIELDS, cvcLength, detect, displayOf, emptyValues, fieldOfParam, normalise, problemOf, serviceMessage, showsWhileTyping, type CardField, type Scheme, type Values } from './card.ts';
import en, { type Catalogue } from '../../i18n/en.ts';
import { cardOutline, KNOWN_SCHEMES, schemeLogo, type KnownScheme } from './scheme-logos.ts';
import { styles } from './styles.ts';
import { arrange } from './arrange.ts';
import type { Typed } from './frame-app.ts';

/** An error answered over the bridge (FrameEnd turns a thrown object into a BridgeError). */
export type FrameError = { code: string; message: string; field?: CardField };

const AUTOCOMPLETE: Record<CardField, string> = { number: 'cc-number', expiry: 'cc-exp', cvc: 'cc-csc', name: 'cc-name' };

const check = svg`<path d="M3.5 8.5l3 3 6-7" fill="none" stroke="currentColor" stroke-width="2" stroke-linecap="round" stroke-linejoin="round"/>`;

/**
 * The inputs of a card frame and everything they share: formatting as you type, scheme detection and
 * badges, validation messages tied to their input, the `change` state (never digits), focus, reset and
 * tokenise. `cpe-card-form` shows all four fields; `cpe-card-field` one. Card values live only in this
 * element: `state()` and the `state` event carry booleans and the scheme, nothing else.
 */
export class CardInputs extends LitElement {
  static override styles = styles;
  static override properties = {
    layout: { reflect: true },
    theme: { reflect: true },
    colorScheme: { reflect: true, attribute: 'scheme' },
    display: { attribute: 'card-schemes-display' },
    catalogue: { attribute: false },
    values: { state: true },
    shown: { state: true },
    outerScheme: { state: true },
  };

  layout: Layout = 'stack';
  theme: Theme = 'auto';
  /** The colour scheme the element resolved (attribute `scheme`, shared/theme.ts); unset, `theme` decides. */
  colorScheme?: ColorScheme;
  display: CardSchemesDisplay = 'detected';
  catalogue: Catalogue = en;
  /** The fields this element shows. */
  get fields(): readonly CardField[] {
    return FIELDS;
  }
  values: Values = emptyValues();
  /** The validation message on display, by field. */
  shown: Partial<Record<CardField, string>> = {};
  /** The scheme the number frame detected (field frames without the number). */
  outerScheme?: Scheme;
  pubKey = '';
  session?: FrameSession;
  /** Fields the shopper left (or tokenise checked): their problems show. */
  protected touched = new Set<CardField>();
  /** The service's refusals, shown until the shopper changes that field. */
  #refusals: Partial<Record<CardField, string>> = {};
  #busy?: Promise<TokeniseResult>;

  get scheme(): Scheme | undefined {
    return this.fields.includes('number') ? detect(this.values.number) : this.outerScheme;
  }

  problem(field: CardField) {
    return problemOf(field, this.values[field], this.scheme);
  }

  /** The `change` state: whether every field here is valid, all empty, the scheme, the fields showing a problem. */
  state(): ChangeState {
    return {
      complete: this.fields.every((f) => !this.problem(f)),
      empty: this.fields.every((f) => !this.values[f]),
      scheme: this.scheme ?? 'unknown',
      invalid: this.fields.filter((f) => this.shown[f]),
      ...(this.fields.length === 1 ? { field: this.fields[0] } : {}),
    };
  }

  protected emitState(): void {
    this.dispatchEvent(new CustomEvent<ChangeState>('state', { detail: this.state() }));
  }

  /** Recomputes the message of one field; `leaving` marks it touched when it holds something. */
  protected refresh(field: CardField, leaving = false): void {
    if (leaving && this.values[field]) this.touched.add(field);
    const problem = this.problem(field);
    const show = problem && (this.touched.has(field) || showsWhileTyping(field, this.values[field], problem));
    const text = this.#refusals[field] ?? (show ? this.catalogue[problem] : undefined);
    if (text !== this.shown[field]) this.shown = { ...this.shown, [field]: text };
  }

  /** Sets a field's value (typed, autofilled or relayed), reformatting it and re-checking it. */
  setValue(field: CardField, raw: string, input?: HTMLInputElement): void {
    const caret = input?.selectionStart ?? raw.length;
    const { value, display, caret: at } = normalise(field, raw, caret, this.scheme);
    if (input) {
      input.value = display;
      if (this.shadowRoot?.activeElement === input) input.setSelectionRange(at, at);
    }
    const before = this.scheme;
    if (value !== this.values[field]) delete this.#refusals[field];
    this.values = { ...this.values, [field]: value };
    this.refresh(field);
    if (field === 'number' && this.scheme !== before) {
      if (this.fields.includes('cvc') && this.values.cvc) this.values = { ...this.values, cvc: this.values.cvc.slice(0, cvcLength(this.scheme)) };
      if (this.fields.includes('cvc')) this.refresh('cvc');
      this.schemeChanged();
    }
  }

  /** Hook: the element-specific part of the frame config (`FrameConfig.extra`). */
  applyExtra(_extra: Record<string, unknown>): void {}

  /** Hook: the detected scheme changed (the number field frame tells its siblings). */
  protected schemeChanged(): void {}

  #onInput = (event: Event) => {
    const input = event.target as HTMLInputElement;
    this.setValue(input.dataset.field as CardField, input.value, input);
    this.emitState();
  };

  #onBlur = (event: Event) => {
    this.refresh((event.target as HTMLInputElement).dataset.field as CardField, true);
    this.emitState();
  };

  /** Shows every field's problem (tokenise); the first invalid field, or undefined when all are valid. */
  validateAll(): CardField | undefined {
    for (const f of this.fields) {
      this.touched.add(f);
      this.refresh(f);
    }
    return this.fields.find((f) => this.problem(f));
  }

  /** Shows a message from outside (the service refused the value) on one of this element's fields. */
  showError(field: CardField, message: string): void {
    if (!this.fields.includes(field)) return;
    this.touched.add(field);
    this.#refusals[field] = message;
    this.shown = { ...this.shown, [field]: message };
    this.emitState();
  }

  /**
   * After a payment that did not go through: `field` takes the focus, emptied first when `clear`
   * (the number of a declined card, a wrong code), with `message` under it until it changes; every
   * other field keeps its value. False when this element has no such field.
   */
  fix(field: CardField, clear: boolean, message?: string): boolean {
    if (!this.fields.includes(field)) return false;
    if (clear) {
      this.values = { ...this.values, [field]: '' };
      this.touched.delete(field);
    }
    if (message) this.#refusals[field] = message;
    this.refresh(field);
    this.emitState();
    void this.updateComplete.then(() => this.#take(this.renderRoot.querySelector<HTMLInputElement>(`#cpe-${field}`)));
    return true;
  }

  reset(): void {
    this.values = emptyValues();
    this.shown = {};
    this.#refusals = {};
    this.touched.clear();
    this.emitState();
  }

  /** Made once connected: the service renders this element in Node (iframe-app/ssr/), which has no ResizeObserver. */
  #resized?: ResizeObserver;

  /**
   * The service's form (declarative shadow DOM, `defer-hydration`) stays as it was sent and painted,
   * arranged but not yet Lit's, until the host takes it over (`takeOver`).
   */
  override connectedCallback(): void {
    if (!this.hasAttribute('defer-hydration')) super.connectedCallback();
    (this.#resized ??= new ResizeObserver(() => this.arrange())).observe(this);
  }

  /**
   * Takes the service's form over: Lit draws the form anew in its shadow root (the served nodes go
   * in the same task, so nothing is painted in between; host.ts puts back what was typed with `adopt`).
   * Drawing anew costs less code than hydrating the served DOM (Lit's hydration support, about 2 KB).
   */
  takeOver(): void {
    this.removeAttribute('defer-hydration');
    if (this.isConnected) super.connectedCallback();
  }

  protected override createRenderRoot(): HTMLElement | DocumentFragment {
    this.shadowRoot?.replaceChildren();
    return super.createRenderRoot();
  }

  override disconnectedCallback(): void {
    super.disconnectedCallback();
    this.#resized?.disconnect();
  }

  protected override updated(): void {
    // Each input shows its field's value (after a reset, a relayed or adopted value), written only
    // where the text differs, so the caret of the input being typed in stays (Lit's `live`, without its code).
    for (const input of this.renderRoot.querySelectorAll<HTMLInputElement>('input[data-field]')) {
      const field = input.dataset.field as CardField;
      const shown = displayOf(field, this.values[field]);
      if (input.value !== shown) input.value = shown;
    }
    this.arrange();
  }

  /**
   * What was typed into the service's form before this code ran (host.ts read it before Lit took the
   * DOM over): each text goes through the field's formatting as if typed now, the caret where it was.
   */
  adopt(typed: Typed): void {
    for (const [name, raw] of typed.values) {
      const field = name as CardField;
      const input = this.shadowRoot?.querySelector<HTMLInputElement>(`#cpe-${field}`);
      if (!input || !this.fields.includes(field)) continue;
      input.value = raw;
      if (typed.focused === field) {
        input.focus();
        input.setSelectionRange(typed.caret ?? raw.length, typed.caret ?? raw.length);
      }
      this.setValue(field, raw, input);
    }
    // An empty field that had the focus has it again (Lit drew new inputs; a focus request answered
    // before the takeover put it there).
    if (typed.focused && !typed.values.some(([name]) => name === typed.focused)) this.shadowRoot?.querySelector<HTMLInputElement>(`#cpe-${typed.focused}`)?.focus();
    if (typed.values.length) this.emitState();
  }

  /** The widest arrangement of the fields that fits (shared/arrange.ts, which the page's first-paint script runs too). */
  arrange(): void {
    // The shadow root, not Lit's renderRoot: the served form's root is there before Lit takes it over (the resize observer may run first).
    if (this.shadowRoot) arrange(this, this.shadowRoot, this.layout, this.fields);
  }

  /** Focuses the first or last input (in the service's form too, before Lit has taken it over). */
  focusAt(position: 'first' | 'last'): void {
    const inputs = this.shadowRoot?.querySelectorAll<HTMLInputElement>('input.in') ?? [];
    this.#take(inputs[position === 'first' ? 0 : inputs.length - 1]);
  }

  /** Focuses `input` for a focus or fix request, and keeps it focused (`#wanted`). */
  #take(input: HTMLInputElement | null | undefined): void {
    if (!input) return;
    input.focus();
    this.#wanted = input.dataset.field;
    addEventListener('focus', this.#refocus);
    addEventListener('pointerdown', this.#settle);
  }

  /**
   * The field a focus or fix request focused, until the shopper points somewhere. The element's own
   * `iframe.focus()` (frame-host.ts) may reach this frame after the request did: Chromium then
   * empties the frame's focus (the input blurs, the window blurs and gets the focus again, the
   * document's focus on its body), when the field takes it back.
   */
  #wanted?: string;
  #refocus = () => {
    if (this.#wanted && document.activeElement === document.body) this.shadowRoot?.querySelector<HTMLInputElement>(`#cpe-${this.#wanted}`)?.focus();
  };
  #settle = () => (this.#wanted = undefined);

  /** Validates, then tokenises the card inside the frame. A second call while one runs shares it. */
  tokenise(): Promise<TokeniseResult> {
    return (this.#busy ??= this.doTokenise().finally(() => (this.#busy = undefined)));
  }

  protected async doTokenise(): Promise<TokeniseResult> {
    const bad = this.validateAll();
    this.emitState();
    if (bad) throw { code: 'invalid_card', message: this.shown[bad] ?? this.catalogue.refused, field: bad } satisfies FrameError;
    return this.submit(this.values);
  }

  /** POST /frames/tokenise on the frame's own origin; only the TokeniseResult fields come back out. */
  protected async submit(values: Values): Promise<TokeniseResult> {
    if (!this.session) throw { code: 'no_session', message: 'There is no payment session yet: the element must configure the frame with a session before tokenising.' } satisfies FrameError;
    let response: Response;
    try {
      response = await fetch('/frames/tokenise', {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', 'X-CPE-Public-Key': this.pubKey, 'X-CPE-Session-Token': this.session.sessionToken },
        body: JSON.stringify({ card: { number: values.number, exp_month: values.expiry.slice(0, 2), exp_year: values.expiry.slice(2, 4), cvc: values.cvc, name: values.name.trim() } }),
        credentials: 'omit',
        cache: 'no-store',
      });
    } catch {
      throw { code: 'network_error', message: 'The payment service could not be reached. Check the connection and try again.' } satisfies FrameError;
    }
    const body = (await response.json().catch(() => undefined)) as { data?: Record<string, unknown>; error?: Record<string, unknown> } | undefined;
    if (response.ok) {
      const d = body?.data ?? {};
      const result = { data: { cp_card_token: d.cp_card_token, scheme: d.scheme, last4: d.last4, expiry_month: d.expiry_month, expiry_year: d.expiry_year } };
      if (conforms(TokeniseResultGuard, result)) return result;
      throw { code: 'bad_response', message: 'The payment service answered tokenise with an unexpected shape.' } satisfies FrameError;
    }
    const error = body?.error ?? {};
    const code = typeof error.code === 'string' ? error.code : 'tokenise_failed';
    const text = typeof error.message === 'string' ? error.message : `Tokenise failed (HTTP ${response.status}).`;
    const field = error.type === 'card_error' ? fieldOfParam(error.param) : undefined;
    if (!field) throw { code, message: text } satisfies FrameError;
    const message = serviceMessage(this.catalogue, code, text);
    this.showError(field, message);
    throw { code, message, field } satisfies FrameError;
  }

  /** `all`: every supported scheme's mark above the fields, the detected one standing out. */
  protected renderBadgeStrip() {
    if (this.display !== 'all' || !this.fields.includes('number')) return nothing;
    const picked = this.scheme && this.scheme !== 'unknown';
    return html`<div class="logos ${picked ? 'picked' : ''}" role="group" aria-label=${this.catalogue.acceptedCards}>
      ${KNOWN_SCHEMES.map((s) => schemeLogo(s, this.scheme === s ? 'logo on' : 'logo'))}
    </div>`;
  }

  protected renderField(field: CardField): TemplateResult {
    const catalogue = this.catalogue;
    const id = `cpe-${field}`;
    const message = this.shown[field];
    const minimal = this.layout === 'row-minimal';
    const numeric = field !== 'name';
    // `detected`: the number shows the scheme's mark at its end (a plain card until one is known).
    const logo = field === 'number' && this.display === 'detected';
    const scheme = this.scheme && this.scheme !== 'unknown' ? (this.scheme as KnownScheme) : undefined;
    const placeholder = minimal && (field === 'number' || field === 'name') ? catalogue[field] : catalogue[`${field}Placeholder`];
    const ok = this.touched.has(field) && !message && !this.problem(field);
    return html`<div class="field ${field}">
      <label for=${id} class=${minimal ? 'sr' : ''}>${catalogue[field]}</label>
      <div class="box">
        <input
          id=${id}
          class="in ${logo ? 'num end' : ''} ${ok ? 'ok end' : ''}"
          data-field=${field}
          name=${AUTOCOMPLETE[field]}
          type="text"
          autocomplete=${AUTOCOMPLETE[field]}
          inputmode=${numeric ? 'numeric' : 'text'}
          dir=${numeric ? 'ltr' : 'auto'}
          autocorrect="off"
          autocapitalize=${numeric ? 'off' : 'words'}
          spellcheck="false"
          placeholder=${placeholder}
          aria-required="true"
          aria-invalid=${message ? 'true' : 'false'}
          aria-describedby=${message ? `${id}-msg` : nothing}
          @input=${this.#onInput}
          @blur=${this.#onBlur}
        />
        ${logo ? (scheme ? schemeLogo(scheme) : cardOutline()) : ok ? html`<svg class="check" viewBox="0 0 16 16" aria-hidden="true">${check}</svg>` : nothing}
      </div>
      <div id="${id}-msg" class="msg" aria-live="polite">${message ?? nothing}</div>
    </div>`;
  }
}
