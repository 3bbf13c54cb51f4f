/**
 * Registers a custom element once, and only where there is a registry: importing the SDK during
 * server-side rendering (no `customElements`) or twice on one page (two script tags) is harmless.
 */
export function defineElement(tag: string, element: CustomElementConstructor): void {
  if (typeof customElements === 'undefined' || customElements.get(tag)) return;
  customElements.define(tag, element);
}
