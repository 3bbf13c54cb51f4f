import { unsafeCSS } from 'lit';

/**
 * shared/styles.ts in the card form page's build (vite.config.ts, `cardFormPage`): the styles the
 * service rendered into the served form's shadow root (ssr/render.ts renders them from
 * shared/styles.ts, minified alike), read before Lit draws the form anew. The page carries them once.
 */
export const styles = unsafeCSS(document.querySelector('cpe-card-form')?.shadowRoot?.querySelector('style')?.textContent ?? '');
