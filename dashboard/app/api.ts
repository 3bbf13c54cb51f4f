import type { SessionView } from '../../api/dashboard.ts';
import { takeFirstAnswer } from './first-data.ts';

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

/** The first requests the boot script started (boot.ts), each taken once. */
function early(path: string): Promise<Response> | undefined {
  const started = (globalThis as { __dashBoot?: Record<string, Promise<Response>> }).__dashBoot;
  const response = started?.[path];
  if (response) delete started![path];
  return response;
}

/**
 * Calls the dashboard's API (same origin, the session cookie goes along by itself): `path` is one of
 * requests.ts's for a GET, answered first from the page's own data (first-data.ts), then by the
 * boot script's request, then by a request of its own. An action (any method but GET) carries the
 * CSRF token. A 401 means the session is gone: the app shows sign-in.
 */
export async function api<T>(path: string, options: { method?: string; body?: unknown; signal?: AbortSignal } = {}): Promise<T> {
  const method = options.method ?? 'GET';
  const carried = method === 'GET' ? takeFirstAnswer<T>(path) : undefined;
  if (carried !== undefined) return carried;
  const headers: Record<string, string> = { accept: 'application/json' };
  if (options.body !== undefined) headers['content-type'] = 'application/json';
  if (method !== 'GET') headers['X-CSRF-Token'] = csrfToken;
  let response: Response;
  try {
    const started = method === 'GET' ? early(path) : undefined;
    // A 401 the boot script got was asked before signing in (the sign-in page came first): ask again.
    const earlyAnswer = started && (await started.catch(() => undefined));
    response = (earlyAnswer && earlyAnswer.status !== 401 ? earlyAnswer : undefined) || (await fetch(`/dashboard/api${path}`, {
      method,
      headers,
      body: options.body === undefined ? undefined : JSON.stringify(options.body),
      credentials: 'same-origin',
      signal: options.signal,
    }));
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
