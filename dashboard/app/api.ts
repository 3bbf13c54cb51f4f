import type { SessionView } from '../../api/dashboard.ts';

/** The dashboard API's error, as the service's error object has it. */
export class DashboardError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly param: string | null = null,
  ) {
    super(message);
  }
}

/** Fired on window when the session is gone (signed out elsewhere, expired, or a key roll ended it). */
export const SIGNED_OUT_EVENT = 'dash:signed-out';

let csrfToken = '';

/** The signed-in session's CSRF token, sent with every action. */
export function useSession(session: SessionView): void {
  csrfToken = session.csrf_token;
}

type Query = Record<string, string | number | undefined | null>;

/** `?a=1&b=2` of the defined values. */
export function queryString(query: Query = {}): string {
  const params = new URLSearchParams();
  for (const [name, value] of Object.entries(query)) if (value !== undefined && value !== null && value !== '') params.set(name, String(value));
  const text = params.toString();
  return text ? `?${text}` : '';
}

/**
 * Calls the dashboard's API (same origin, the session cookie goes along by itself). An action (any
 * method but GET) carries the CSRF token. A 401 means the session is gone: the app shows sign-in.
 */
export async function api<T>(path: string, options: { method?: string; body?: unknown; query?: Query; signal?: AbortSignal } = {}): Promise<T> {
  const method = options.method ?? 'GET';
  const headers: Record<string, string> = { accept: 'application/json' };
  if (options.body !== undefined) headers['content-type'] = 'application/json';
  if (method !== 'GET') headers['X-CSRF-Token'] = csrfToken;
  let response: Response;
  try {
    response = await fetch(`/dashboard/api${path}${queryString(options.query)}`, {
      method,
      headers,
      body: options.body === undefined ? undefined : JSON.stringify(options.body),
      credentials: 'same-origin',
      signal: options.signal,
    });
  } catch (error) {
    if ((error as Error).name === 'AbortError') throw error;
    throw new DashboardError(0, 'network', 'The service did not answer: is it running?');
  }
  const body = (await response.json().catch(() => null)) as { error?: { code: string; message: string; param: string | null } } | null;
  if (!response.ok) {
    const error = body?.error;
    if (response.status === 401 && error?.code === 'signed_out') window.dispatchEvent(new Event(SIGNED_OUT_EVENT));
    throw new DashboardError(response.status, error?.code ?? 'http_error', error?.message ?? `The service answered ${response.status}.`, error?.param ?? null);
  }
  return body as T;
}
