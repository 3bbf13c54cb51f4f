import { html, nothing } from 'lit';
import type { ListPage } from '../../api/dashboard.ts';

/** Where a cursor page was asked from: the newest, after an id (older), or before one (newer). */
export type PageRequest = { starting_after?: string; ending_before?: string };

/**
 * A list read a page at a time by cursor, newest first, as the Stripe API pages (never the whole
 * list: a merchant may have 100,000 payments). Knows whether there are newer and older pages.
 */
export class CursorPages<T extends { id: string }> {
  data: T[] = [];
  hasNewer = false;
  hasOlder = false;
  #request: PageRequest = {};

  constructor(private readonly read: (request: PageRequest) => Promise<ListPage<T>>) {}

  /** The page asked for (default: the newest); resolves once `data` holds it. */
  async load(request: PageRequest = {}): Promise<void> {
    const page = await this.read(request);
    this.#request = request;
    this.data = page.data;
    if (request.ending_before !== undefined) [this.hasNewer, this.hasOlder] = [page.has_more, true];
    else [this.hasNewer, this.hasOlder] = [request.starting_after !== undefined, page.has_more];
  }

  /** The same page again (after a change, or new data at the top). */
  reload(): Promise<void> {
    return this.load(this.#request);
  }

  get atNewest(): boolean {
    return !this.hasNewer;
  }

  older(): Promise<void> {
    return this.load({ starting_after: this.data.at(-1)?.id });
  }

  newer(): Promise<void> {
    const first = this.data[0]?.id;
    return first === undefined ? this.load() : this.load({ ending_before: first });
  }
}

/** The Newer / Older buttons under a list. */
export function pager(pages: CursorPages<{ id: string }>, onChange: (move: () => Promise<void>) => void, label: string) {
  if (!pages.hasNewer && !pages.hasOlder) return nothing;
  return html`<nav class="pager" aria-label="${label} pages">
    <button type="button" ?disabled=${!pages.hasNewer} @click=${() => onChange(() => pages.newer())}>← Newer</button>
    <button type="button" ?disabled=${!pages.hasOlder} @click=${() => onChange(() => pages.older())}>Older →</button>
  </nav>`;
}
