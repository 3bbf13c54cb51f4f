/** The dashboard's pages by address; every address under /dashboard is the same app page (the service answers it). */
export type PageName = 'home' | 'payments' | 'payment' | 'events' | 'event' | 'webhooks' | 'webhook' | 'developers' | 'link';

export interface Route {
  page: PageName;
  /** The id in the address, for a page of one object. */
  id?: string;
  query: URLSearchParams;
}

const PATTERNS: [RegExp, PageName][] = [
  [/^\/dashboard\/?$/, 'home'],
  [/^\/dashboard\/payments\/?$/, 'payments'],
  [/^\/dashboard\/payments\/([^/]+)$/, 'payment'],
  [/^\/dashboard\/events\/?$/, 'events'],
  [/^\/dashboard\/events\/([^/]+)$/, 'event'],
  [/^\/dashboard\/webhooks\/?$/, 'webhooks'],
  [/^\/dashboard\/webhooks\/([^/]+)$/, 'webhook'],
  [/^\/dashboard\/developers\/?$/, 'developers'],
  [/^\/dashboard\/link\/?$/, 'link'],
];

/** The route of an address; an unknown one is undefined (the app shows "not found"). */
export function routeOf(location: { pathname: string; search: string }): Route | undefined {
  for (const [pattern, page] of PATTERNS) {
    const match = pattern.exec(location.pathname);
    if (match) return { page, ...(match[1] ? { id: decodeURIComponent(match[1]) } : {}), query: new URLSearchParams(location.search) };
  }
  return undefined;
}

export const NAVIGATE_EVENT = 'dash:navigate';

/** Goes to a page of the app without reloading (history entry added, or replaced). */
export function navigate(href: string, { replace = false } = {}): void {
  if (replace) history.replaceState(null, '', href);
  else history.pushState(null, '', href);
  window.dispatchEvent(new Event(NAVIGATE_EVENT));
}

/** A link click the app handles itself: same origin, under /dashboard, no modifier key, no other target. */
export function ownLink(event: MouseEvent): string | undefined {
  if (event.defaultPrevented || event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return undefined;
  const anchor = event.composedPath().find((node): node is HTMLAnchorElement => node instanceof HTMLAnchorElement);
  if (!anchor || anchor.target || anchor.hasAttribute('download')) return undefined;
  const url = new URL(anchor.href, location.href);
  if (url.origin !== location.origin || !url.pathname.startsWith('/dashboard') || url.pathname.startsWith('/dashboard/api')) return undefined;
  return url.pathname + url.search + url.hash;
}
