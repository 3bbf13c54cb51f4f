import { html, nothing } from 'lit';
import type { SessionView } from '../../api/dashboard.ts';
import { DashElement, READY_ATTRIBUTE, define, type DashPage } from '../ui/element.ts';
import { api, SIGNED_OUT_EVENT, useSession } from './api.ts';
import { takeFirstAnswer } from './first-data.ts';
import { requests } from './requests.ts';
import { NAVIGATE_EVENT, navigate, ownLink, routeOf, type PageName, type Route } from './router.ts';
import { applyTheme, savedTheme, type ThemeChoice } from './theme.ts';
import { TOAST_EVENT } from './toast.ts';
import type { DashSignIn } from './sign-in.ts';
import './sign-in.ts';
import '../pages/home.ts';

/**
 * Each page's code, loaded the first time it is opened (one chunk per page); but the first page's,
 * Home, which is in the shell's module, so it shows without another request (bench/dashboard).
 */
const PAGES: Record<Exclude<PageName, 'link'>, { title: string; load?: () => Promise<unknown> }> = {
  home: { title: 'Home' },
  payments: { title: 'Payments', load: () => import('../pages/payments.ts') },
  payment: { title: 'Payment', load: () => import('../pages/payment.ts') },
  events: { title: 'Events', load: () => import('../pages/events.ts') },
  event: { title: 'Event', load: () => import('../pages/event.ts') },
  webhooks: { title: 'Webhooks', load: () => import('../pages/webhooks.ts') },
  webhook: { title: 'Webhook endpoint', load: () => import('../pages/webhook.ts') },
  developers: { title: 'Developers', load: () => import('../pages/developers.ts') },
};

/** The sections in the navigation, and the pages each one covers. */
const SECTIONS: { href: string; label: string; pages: PageName[] }[] = [
  { href: '/dashboard', label: 'Home', pages: ['home'] },
  { href: '/dashboard/payments', label: 'Payments', pages: ['payments', 'payment'] },
  { href: '/dashboard/events', label: 'Events', pages: ['events', 'event'] },
  { href: '/dashboard/webhooks', label: 'Webhooks', pages: ['webhooks', 'webhook'] },
  { href: '/dashboard/developers', label: 'Developers', pages: ['developers'] },
];

/**
 * `<dash-app>`: the dashboard. Asks for the session; signed out, the sign-in page (or a one-time
 * link's redemption); signed in, the bar, the sections and the page of the address. Navigation stays
 * in the page (history API) and moves focus to the new page's heading, as a page load would.
 */
export class DashApp extends DashElement {
  static override properties = {
    session: { state: true },
    route: { state: true },
    page: { state: true },
    theme: { state: true },
    message: { state: true },
  };
  /** undefined: not known yet (the page shows meanwhile); null: signed out. */
  declare session: SessionView | null | undefined;
  declare route: Route | undefined;
  declare page: HTMLElement | undefined;
  declare theme: ThemeChoice;
  declare message: string;
  #moveFocus = false;
  #toastTimer: ReturnType<typeof setTimeout> | undefined;

  constructor() {
    super();
    this.theme = savedTheme();
    this.message = '';
    applyTheme(this.theme);
  }

  /** The page's "Loading…" placeholder goes: the app renders in its place. */
  protected override createRenderRoot(): HTMLElement {
    this.replaceChildren();
    return this;
  }

  override connectedCallback(): void {
    super.connectedCallback();
    // The app's code has loaded and runs (bench/dashboard reports it beside the first page's ready).
    performance.mark('dash:boot');
    window.addEventListener('popstate', this.#onNavigate);
    window.addEventListener(NAVIGATE_EVENT, this.#onNavigate);
    window.addEventListener(SIGNED_OUT_EVENT, this.#onSignedOut);
    window.addEventListener(TOAST_EVENT, this.#onToast as EventListener);
    document.addEventListener('click', this.#onClick);
    void this.#start();
  }

  override disconnectedCallback(): void {
    super.disconnectedCallback();
    window.removeEventListener('popstate', this.#onNavigate);
    window.removeEventListener(NAVIGATE_EVENT, this.#onNavigate);
    window.removeEventListener(SIGNED_OUT_EVENT, this.#onSignedOut);
    window.removeEventListener(TOAST_EVENT, this.#onToast as EventListener);
    document.removeEventListener('click', this.#onClick);
  }

  /**
   * The page of the address is shown at once, its data asked for while the session is: one round
   * trip after the page's code before the first page shows (bench/dashboard). A signed-in visit's
   * page carries its session (and Home's data: first-data.ts), so the bar shows it from the first
   * render. Signed out, the page's requests answer 401 and the session says so: the sign-in page
   * replaces it.
   */
  async #start(): Promise<void> {
    const route = routeOf(location);
    if (route?.page === 'link') return this.#redeemLink();
    const carried = takeFirstAnswer<SessionView>(requests.session());
    if (carried) {
      useSession(carried);
      this.session = carried;
      return this.#open();
    }
    void this.#open();
    const session = await api<SessionView | { signed_in: false }>(requests.session());
    if ('signed_in' in session) this.#onSignedOut();
    else {
      useSession(session);
      this.session = session;
    }
  }

  /** `/dashboard/link#<token>`: the token never left the browser until this POST; the address forgets it. */
  async #redeemLink(): Promise<void> {
    const token = location.hash.slice(1);
    history.replaceState(null, '', '/dashboard');
    if (!token) {
      this.session = null;
      return;
    }
    try {
      this.#signedIn(await api<SessionView>('/sign-in', { method: 'POST', body: { link: token } }));
    } catch (error) {
      this.session = null;
      await this.updateComplete;
      this.querySelector<DashSignIn>('dash-sign-in')?.showError((error as Error).message);
    }
  }

  #signedIn(session: SessionView): void {
    useSession(session);
    this.session = session;
    void this.#open();
  }

  readonly #onSignedOut = () => {
    this.session = null;
    this.page = undefined;
  };

  readonly #onNavigate = () => {
    this.#moveFocus = true;
    void this.#open();
  };

  readonly #onClick = (event: MouseEvent) => {
    const href = ownLink(event);
    if (href === undefined || !this.session) return;
    event.preventDefault();
    if (href !== location.pathname + location.search) navigate(href);
  };

  readonly #onToast = (event: CustomEvent<string>) => {
    this.message = event.detail;
    clearTimeout(this.#toastTimer);
    this.#toastTimer = setTimeout(() => (this.message = ''), 5000);
  };

  /** Shows the page of the current address. */
  async #open(): Promise<void> {
    document.documentElement.removeAttribute(READY_ATTRIBUTE);
    const route = routeOf(location);
    this.route = route;
    if (!route || route.page === 'link') {
      if (route?.page === 'link') navigate('/dashboard', { replace: true });
      this.page = undefined;
      document.title = 'Not found · CPE Dashboard';
      return;
    }
    const { title, load } = PAGES[route.page];
    if (load) {
      await load();
      if (this.route !== route) return;
    }
    const page = document.createElement(`dash-page-${route.page}`) as HTMLElement & { route: Route };
    page.route = route;
    this.page = page;
    document.title = `${title} · CPE Dashboard`;
    if (this.#moveFocus) {
      // As a page load would: focus to the new page's heading, once it shows its data (its heading is final then).
      await (page as unknown as DashPage).ready;
      if (this.page === page) (this.querySelector('main h1') as HTMLElement | null)?.focus();
    }
  }

  async #signOut(): Promise<void> {
    try {
      await api('/sign-out', { method: 'POST' });
    } finally {
      this.#onSignedOut();
      history.replaceState(null, '', '/dashboard');
    }
  }

  #setTheme(choice: ThemeChoice): void {
    this.theme = choice;
    applyTheme(choice);
  }

  protected override render() {
    if (this.session === null) return html`<dash-sign-in @signed-in=${(event: CustomEvent<SessionView>) => this.#signedIn(event.detail)}></dash-sign-in>`;
    const current = this.route?.page;
    return html`<a class="skip-link" href="#main" @click=${(event: Event) => {
        event.preventDefault();
        (this.querySelector('main') as HTMLElement).focus();
      }}>Skip to content</a>
      <header class="topbar">
        <a class="brand" href="/dashboard"><span class="mark" aria-hidden="true">C</span>CPE</a>
        <span class="test-badge">Test mode</span>
        <span class="spacer"></span>
        <span class="merchant-name">${this.session ? `${this.session.merchant.name} · ${this.session.merchant.id}` : ''}</span>
        <select aria-label="Theme" @change=${(event: Event) => this.#setTheme((event.target as HTMLSelectElement).value as ThemeChoice)}>
          <option value="system" ?selected=${this.theme === 'system'}>System theme</option>
          <option value="light" ?selected=${this.theme === 'light'}>Light theme</option>
          <option value="dark" ?selected=${this.theme === 'dark'}>Dark theme</option>
        </select>
        <button type="button" @click=${() => this.#signOut()}>Sign out</button>
      </header>
      <div class="layout">
        <nav class="sections" aria-label="Dashboard">
          <ul>
            ${SECTIONS.map(
              (section) =>
                html`<li><a href=${section.href} aria-current=${current && section.pages.includes(current) ? 'page' : nothing}>${section.label}</a></li>`,
            )}
          </ul>
        </nav>
        <main id="main" tabindex="-1">
          ${this.page ?? (this.route ? html`<p class="muted">Loading…</p>` : html`<h1 tabindex="-1">Page not found</h1><p><a href="/dashboard">Go to the dashboard's home</a></p>`)}
        </main>
      </div>
      <div class=${this.message ? 'toast' : 'visually-hidden'} role="status">${this.message}</div>`;
  }
}
define('dash-app', DashApp);
