import { html } from 'lit';
import { DashElement, define } from './element.ts';

/** Copies text to the clipboard; without permission (an insecure origin) selects `fallback` so Ctrl+C does. */
export async function copyText(text: string, fallback?: Element | null): Promise<void> {
  try {
    await navigator.clipboard.writeText(text);
  } catch {
    if (fallback) getSelection()?.selectAllChildren(fallback);
  }
}

/** `<dash-copy>`: a Copy button for `text`, which says "Copied" (and announces it) for two seconds. */
export class DashCopy extends DashElement {
  static override properties = { text: { attribute: false }, label: {}, copied: { state: true } };
  declare text: string;
  declare label: string;
  declare copied: boolean;

  constructor() {
    super();
    this.text = '';
    this.label = 'Copy';
    this.copied = false;
  }

  async #copy(): Promise<void> {
    await copyText(this.text, this.previousElementSibling);
    this.copied = true;
    setTimeout(() => (this.copied = false), 2000);
  }

  protected override render() {
    return html`<button type="button" aria-label=${this.label} @click=${() => this.#copy()}>${this.copied ? 'Copied' : 'Copy'}</button
      ><span class="visually-hidden" role="status">${this.copied ? 'Copied to the clipboard' : ''}</span>`;
  }
}
define('dash-copy', DashCopy);
