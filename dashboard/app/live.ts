import type { ReactiveController, ReactiveControllerHost } from 'lit';
import type { ListPage } from '../../api/dashboard.ts';
import { api } from './api.ts';
import { queryString, requests } from './requests.ts';
import type { EventView } from './types.ts';

/** How often a page that shows live data asks for new events while the tab is visible. */
export const POLL_MS = 2000;

/**
 * New events as they happen, for the page that adds this controller: it polls the merchant's events
 * (`ending_before` the newest it has seen) while the page is shown and the tab visible, and hands each
 * batch to `onEvents`. Polling, as Stripe's Dashboard does, rather than a stream: it works the same
 * behind any proxy and across any number of service processes, which all read one store.
 */
export class LiveEvents implements ReactiveController {
  #newest: string | undefined;
  #timer: ReturnType<typeof setTimeout> | undefined;
  #running = false;
  #abort: AbortController | undefined;

  constructor(
    host: ReactiveControllerHost,
    private readonly onEvents: (events: EventView[]) => void,
  ) {
    host.addController(this);
  }

  hostConnected(): void {
    this.#running = true;
    document.addEventListener('visibilitychange', this.#onVisibility);
    void this.#start();
  }

  hostDisconnected(): void {
    this.#running = false;
    clearTimeout(this.#timer);
    this.#abort?.abort();
    document.removeEventListener('visibilitychange', this.#onVisibility);
  }

  readonly #onVisibility = () => {
    if (document.visibilityState === 'visible' && this.#running) void this.#poll();
  };

  /** The newest event now is where the polling starts: what happened before is the page's first load. */
  async #start(): Promise<void> {
    try {
      const page = await api<ListPage<EventView>>(requests.newestEvent());
      this.#newest = page.data[0]?.id ?? '';
    } catch {
      this.#newest = undefined;
    }
    this.#schedule();
  }

  #schedule(): void {
    clearTimeout(this.#timer);
    if (this.#running) this.#timer = setTimeout(() => void this.#poll(), POLL_MS);
  }

  async #poll(): Promise<void> {
    if (!this.#running || document.visibilityState === 'hidden') return;
    if (this.#newest === undefined) return this.#start();
    this.#abort?.abort();
    this.#abort = new AbortController();
    try {
      // ending_before the newest seen: the events made since (up to 100 a poll; the next poll takes the rest).
      const page = await api<ListPage<EventView>>(`/events${queryString({ limit: 100, ending_before: this.#newest })}`, { signal: this.#abort.signal });
      if (page.data.length) {
        this.#newest = page.data[0]!.id;
        this.onEvents(page.data);
      }
    } catch (error) {
      if ((error as Error).name === 'AbortError') return;
    }
    this.#schedule();
  }
}
