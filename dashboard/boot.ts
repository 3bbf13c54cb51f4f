/**
 * The boot script: inline in the dashboard's page (vite.config.ts builds it on its own and puts it in
 * the head), so it runs as soon as the page is parsed, before the shell's module has downloaded and
 * compiled. For the page of the address it starts the first requests the page does not carry the
 * answers of already (app/first-data.ts), whose answers the app then takes (app/api.ts) instead of
 * asking again, and preloads that page's code (its chunks, from the table the build put beside this
 * script). The first page then waits for no round trip after the shell's. It also keeps the
 * viewer's time zone in a cookie, for the Home figures the service puts into the next visit's page.
 */
import { firstAnswerComing, rememberTimeZone } from './app/first-data.ts';
import { firstRequests } from './app/requests.ts';
import { routeOf } from './app/router.ts';

rememberTimeZone();
const started: Record<string, Promise<Response>> = {};
// What the service puts into the page (a signed-in visit's first answers, first-data.ts) is not asked for.
for (const path of firstRequests(location).filter((path) => !firstAnswerComing(path))) {
  const response = fetch(`/dashboard/api${path}`, { headers: { accept: 'application/json' }, credentials: 'same-origin' });
  // A failed one is asked again by the app: never an unhandled rejection here.
  response.catch(() => {});
  started[path] = response;
}
(globalThis as { __dashBoot?: Record<string, Promise<Response>> }).__dashBoot = started;

const page = routeOf(location)?.page;
const chunks = JSON.parse(document.getElementById('dash-chunks')?.textContent || '{}') as Record<string, string[]>;
for (const href of (page && chunks[page]) || []) {
  const link = document.createElement('link');
  link.rel = 'modulepreload';
  link.href = href;
  document.head.append(link);
}
