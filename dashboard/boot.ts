/**
 * The boot script: inline in the dashboard's page (vite.config.ts builds it on its own and puts it in
 * the head), so it runs as soon as the page is parsed, before the app's module has downloaded and
 * compiled. It starts the first requests of the page of the address; the app takes their answers
 * (app/api.ts) instead of asking again. The first page then needs no round trip after its code.
 */
import { firstRequests } from './app/requests.ts';

const started: Record<string, Promise<Response>> = {};
for (const path of firstRequests(location)) {
  const response = fetch(`/dashboard/api${path}`, { headers: { accept: 'application/json' }, credentials: 'same-origin' });
  // A failed one is asked again by the app: never an unhandled rejection here.
  response.catch(() => {});
  started[path] = response;
}
(globalThis as { __dashBoot?: Record<string, Promise<Response>> }).__dashBoot = started;
