import { LitElement } from 'lit';
import type { Route } from '../app/router.ts';

/**
 * The dashboard's elements render into the page itself (no shadow root): the one stylesheet
 * (styles.css) styles them all, and labels, ids and dialogs work across them as in any page.
 */
export class DashElement extends LitElement {
  protected override createRenderRoot(): HTMLElement {
    return this;
  }
}

/** Marks the page ready for tests and the bench: its first data is on screen. */
export const READY_ATTRIBUTE = 'data-ready';

/**
 * A page of the dashboard: it gets its route, loads its data, and says when the first data is shown
 * (`html[data-ready=<page>]`), which the tests and the first-page bench wait for.
 */
export class DashPage extends DashElement {
  static override properties = { route: { attribute: false } };
  declare route: Route;
  #shown!: () => void;
  /** Resolves once the page's first data is on screen (the shell then moves focus to its heading). */
  readonly ready = new Promise<void>((resolve) => (this.#shown = resolve));

  /** Called by the page once its first data is rendered. */
  protected shown(): void {
    // Its own render and its elements' (Home's charts draw once they know their width): all on screen.
    const drawn = async () => {
      await this.updateComplete;
      await Promise.all([...this.querySelectorAll('*')].filter((element) => element instanceof DashElement).map((element) => element.updateComplete));
    };
    void drawn().then(() => {
      // A page replaced meanwhile (signed out, another address) says nothing.
      if (!this.isConnected) return;
      this.#shown();
      // The first page's figure for bench/dashboard (a mark, since navigation start).
      if (!performance.getEntriesByName('dash:ready').length) performance.mark('dash:ready');
      document.documentElement.setAttribute(READY_ATTRIBUTE, this.route.page);
    });
  }
}

export function define(tag: string, element: CustomElementConstructor): void {
  if (!customElements.get(tag)) customElements.define(tag, element);
}
