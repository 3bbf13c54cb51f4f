import { html, nothing } from 'lit';
import type { SessionView } from '../../api/dashboard.ts';
import { DashElement, define } from '../ui/element.ts';
import { api } from './api.ts';

/**
 * `<dash-sign-in>`: the licence key, once (the service keeps only its hash and never sends it back),
 * or a one-time link from `npm run -s dashboard`. Fires `signed-in` with the session.
 */
export class DashSignIn extends DashElement {
  static override properties = { error: { state: true }, busy: { state: true } };
  declare error: string;
  declare busy: boolean;

  constructor() {
    super();
    this.error = '';
    this.busy = false;
  }

  /** Shows why a sign-in (a spent link) failed. */
  showError(message: string): void {
    this.error = message;
  }

  protected override firstUpdated(): void {
    document.title = 'Sign in · CPE Dashboard';
    document.documentElement.setAttribute('data-ready', 'sign-in');
  }

  async #submit(event: SubmitEvent): Promise<void> {
    event.preventDefault();
    const form = event.target as HTMLFormElement;
    const input = form.elements.namedItem('licence_key') as HTMLInputElement;
    this.busy = true;
    this.error = '';
    try {
      const session = await api<SessionView>('/sign-in', { method: 'POST', body: { licence_key: input.value.trim() } });
      input.value = '';
      this.dispatchEvent(new CustomEvent('signed-in', { detail: session }));
    } catch (error) {
      this.error = (error as Error).message;
      await this.updateComplete;
      input.focus();
    } finally {
      this.busy = false;
    }
  }

  protected override render() {
    return html`<main class="sign-in">
      <div class="card">
        <h1>Sign in to the CPE dashboard</h1>
        <p class="muted">Test mode. Your payments, events, webhooks and API requests, for one test merchant.</p>
        <form class="stack" @submit=${(event: SubmitEvent) => this.#submit(event)}>
          <label
            >Licence key
            <span class="hint" id="key-hint">Your server's key (sk_test_…): npm run -s credentials prints the seeded merchant's.</span>
            <input
              name="licence_key"
              type="password"
              autocomplete="off"
              spellcheck="false"
              required
              aria-describedby="key-hint${this.error ? ' sign-in-error' : ''}"
              aria-invalid=${this.error ? 'true' : nothing}
          /></label>
          ${this.error ? html`<p class="error-text" id="sign-in-error" role="alert">${this.error}</p>` : nothing}
          <button class="primary" type="submit" ?disabled=${this.busy}>${this.busy ? 'Signing in…' : 'Sign in'}</button>
        </form>
        <p class="muted">Or open a one-time sign-in link: <code>npm run -s dashboard</code> prints one (<code>npm start</code> prints one too).</p>
      </div>
    </main>`;
  }
}
define('dash-sign-in', DashSignIn);
