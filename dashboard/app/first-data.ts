/**
 * The answers the service put into a signed-in visit's page (server/dashboard/first-page.ts), by the
 * path under /dashboard/api they answer: the page takes each once instead of asking for it, so its
 * first page shows without a round trip. Read when first taken: by the app's module, which runs once
 * the whole page is parsed. Imports nothing, so the boot script (boot.ts) stays small.
 */
let answers: Record<string, unknown> | undefined;

function embedded(): Record<string, unknown> {
  if (!answers) {
    try {
      answers = (JSON.parse(document.getElementById('dash-first')?.textContent || '{}') as { answers?: Record<string, unknown> }).answers ?? {};
    } catch {
      answers = {};
    }
  }
  return answers;
}

/**
 * Whether the page brings the answer to `path`: its head names them (a meta), its data block comes at
 * the end of the page (the service sends the page's start while it reads them).
 */
export const firstAnswerComing = (path: string): boolean =>
  (document.querySelector<HTMLMetaElement>('meta[name="dash-first"]')?.content ?? '').split(' ').includes(path);

/** The page's answer to `path`, once: later calls (a reload of the data) ask the service. */
export function takeFirstAnswer<T>(path: string): T | undefined {
  const found = embedded();
  if (!Object.hasOwn(found, path)) return undefined;
  const answer = found[path] as T;
  delete found[path];
  return answer;
}

/** The cookie the service reads the viewer's time zone from for Home's days (server/dashboard/first-page.ts TZ_COOKIE). */
export function rememberTimeZone(): void {
  document.cookie = `cpe_dashboard_tz=${new Date().getTimezoneOffset()}; Path=/dashboard; Max-Age=31536000; SameSite=Strict`;
}
