import type { CardInputs } from '../../iframe-app/shared/card-inputs.ts';
import { scaled } from '../../testkit/time.ts';

/** The input of one field inside a card element's shadow root. */
export const input = (el: CardInputs, field: string) => el.shadowRoot!.querySelector<HTMLInputElement>(`#cpe-${field}`)!;

/** Types `text` as if the shopper did: the value changes with the caret at the end, then `input`. */
export async function type(el: CardInputs, field: string, text: string): Promise<HTMLInputElement> {
  const i = input(el, field);
  i.focus();
  i.value = text;
  i.setSelectionRange(text.length, text.length);
  i.dispatchEvent(new InputEvent('input', { bubbles: true, composed: true }));
  await el.updateComplete;
  return i;
}

/** Leaves a field (blur). */
export async function leave(el: CardInputs, field: string): Promise<void> {
  input(el, field).dispatchEvent(new FocusEvent('blur'));
  await el.updateComplete;
}

/** A card number whose expiry is next year, as MMYY. */
export const future = () => `12${String((new Date().getUTCFullYear() + 1) % 100).padStart(2, '0')}`;

declare global {
  interface Window {
    axe: { run(context: Element, options?: object): Promise<{ violations: { id: string; impact: string; help: string; nodes: { target: string[] }[] }[] }> };
  }
}

/** axe-core, loaded as a classic script (its npm entry is not an ES module). */
export async function loadAxe(): Promise<Window['axe']> {
  if (window.axe) return window.axe;
  await new Promise<void>((resolve, reject) => {
    const s = document.createElement('script');
    s.src = '/node_modules/axe-core/axe.min.js';
    s.onload = () => resolve();
    s.onerror = () => reject(new Error('axe-core did not load'));
    document.head.append(s);
  });
  return window.axe;
}

/**
 * How long a test listens for an answer that a frame doing its job never sends (to a forged init, on
 * a port it must ignore): `ms`, scaled. Never to wait for something to happen: a slow machine can
 * only make such a test miss a late answer, never fail a frame that is right.
 */
export const listenFor = (ms: number) => new Promise((resolve) => setTimeout(resolve, scaled(ms)));
