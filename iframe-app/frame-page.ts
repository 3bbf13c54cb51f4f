/**
 * The one source of every frame's page: `iframe-app/<app>/` has a `main.ts` (and its own code), and
 * its `index.html` is this head with the app's title, stylesheet and entry. The build makes each page
 * from it (vite.config.ts, `framePages`); the component tests' dev server answers
 * `/iframe-app/<app>/index.html` with it (web-test-runner.config.mjs).
 */
import { FRAME_APPS, type FrameAppName } from '../protocol/runtime/frame-address.ts';

/** `form`: the service renders the form into the page (iframe-app/ssr/render.ts) at FORM_MARK. */
const PAGES: Record<FrameAppName, { title: string; stylesheet?: string; form?: boolean }> = {
  'card-form': { title: 'Card payment', form: true },
  field: { title: 'Card field' },
  flow: { title: 'Card payment' },
  'wallet-button': { title: 'Wallet' },
  'wallet-sheet': { title: 'Wallet', stylesheet: './sheet.css' },
  payment: { title: 'Payment' },
};

/** Where a page takes the form the service renders into it (the build adds the first-paint script after it). */
export const FORM_MARK = '<!--cpe:form-->';

/** The frame apps (each a folder of iframe-app/ with a main.ts). */
export { FRAME_APPS };

/** The page of a frame app, or undefined for a name that is not one. */
export function framePage(app: string): string | undefined {
  const page = Object.hasOwn(PAGES, app) ? PAGES[app as FrameAppName] : undefined;
  if (!page) return undefined;
  return `<!doctype html>
<html lang="en">
  <head>
    <meta charset="utf-8" />
    <meta name="viewport" content="width=device-width, initial-scale=1" />
    <meta name="referrer" content="no-referrer" />
    <title>${page.title}</title>
    <link rel="stylesheet" href="${page.stylesheet ?? '../shared/frame.css'}" />
    <script type="module" src="./main.ts"></script>
  </head>
  <body>${page.form ? FORM_MARK : ''}</body>
</html>
`;
}
