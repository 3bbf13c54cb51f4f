import { routeOf } from './router.ts';

/**
 * Every GET the dashboard's pages make, as the path under /dashboard/api, and which of them a page
 * makes as soon as it opens. One source for both: the boot script (boot.ts) starts a page's first
 * requests from the HTML, before the app's code has arrived, and the page then asks for the very same
 * strings and gets those answers (api.ts). Imports only router.ts, so the boot script stays small.
 */
type Query = Record<string, string | number | undefined | null>;

/** `?a=1&b=2` of the defined, non-empty values. */
export function queryString(query: Query = {}): string {
  const params = new URLSearchParams();
  for (const [name, value] of Object.entries(query)) if (value !== undefined && value !== null && value !== '') params.set(name, String(value));
  const text = params.toString();
  return text ? `?${text}` : '';
}

/** A list page's cursor: the newest, after an id (older) or before one (newer). */
export interface Cursor {
  starting_after?: string;
  ending_before?: string;
}

/** The Payments page's filters, as its address carries them (`?status=&from=&to=&q=`). */
export interface PaymentFilters {
  status: string;
  from: string;
  to: string;
  q: string;
}

export const paymentFilters = (query: URLSearchParams): PaymentFilters => ({
  status: query.get('status') ?? '',
  from: query.get('from') ?? '',
  to: query.get('to') ?? '',
  q: query.get('q') ?? '',
});

/** A date input's day (yyyy-mm-dd, the viewer's time zone) as Unix seconds: its start, or its end. */
export function dayBound(day: string, end: boolean): number | undefined {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(day)) return undefined;
  const [y, m, d] = day.split('-').map(Number) as [number, number, number];
  const at = new Date(y, m - 1, d + (end ? 1 : 0)).getTime() / 1000;
  return end ? at - 1 : at;
}

const id = (value: string) => encodeURIComponent(value);

export const requests = {
  session: () => '/session',
  /** The newest event: where the live polling starts (live.ts). */
  newestEvent: () => '/events?limit=1',
  home: () => `/home${queryString({ tz_offset: new Date().getTimezoneOffset() })}`,
  payments: (filters: PaymentFilters, cursor: Cursor = {}) =>
    `/payment_intents${queryString({
      limit: 20,
      status: filters.status,
      'created[gte]': dayBound(filters.from, false),
      'created[lte]': dayBound(filters.to, true),
      q: filters.q.trim(),
      ...cursor,
    })}`,
  payment: (paymentId: string) => `/payment_intents/${id(paymentId)}`,
  events: (type: string, cursor: Cursor = {}) => `/events${queryString({ limit: 25, type, ...cursor })}`,
  event: (eventId: string) => `/events/${id(eventId)}`,
  webhooks: () => '/webhook_endpoints?limit=100',
  webhook: (endpointId: string) => `/webhook_endpoints/${id(endpointId)}`,
  attempts: (endpointId: string, cursor: Cursor = {}) => `/webhook_endpoints/${id(endpointId)}/attempts${queryString({ limit: 20, ...cursor })}`,
  keys: () => '/keys',
  requestLog: (status: string, cursor: Cursor = {}) => `/requests${queryString({ limit: 20, status, ...cursor })}`,
};

/** The requests the page of an address makes as it opens (the session's and the live polling's too). */
export function firstRequests(location: { pathname: string; search: string }): string[] {
  const route = routeOf(location);
  if (!route || route.page === 'link') return [];
  const live = [requests.session(), requests.newestEvent()];
  const statusFilter = route.query.get('status') ?? '';
  switch (route.page) {
    case 'home':
      return [...live, requests.home()];
    case 'payments':
      return [...live, requests.payments(paymentFilters(route.query))];
    case 'payment':
      return [...live, requests.payment(route.id!)];
    case 'events':
      return [...live, requests.events(route.query.get('type') ?? '')];
    case 'event':
      return [requests.session(), requests.event(route.id!)];
    case 'webhooks':
      return [requests.session(), requests.webhooks()];
    case 'webhook':
      return [...live, requests.webhook(route.id!), requests.attempts(route.id!)];
    case 'developers':
      return [requests.session(), requests.keys(), requests.requestLog(['2xx', '4xx', '5xx'].includes(statusFilter) ? statusFilter : '')];
  }
}
