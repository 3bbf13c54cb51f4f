/**
 * The card form's page with the form in it: iframe-app/ssr/render.ts renders it with Lit in this
 * process. That module runs browser code under Lit's DOM shim, so the service's TypeScript project
 * (no DOM) does not follow it: it is loaded by address, on first use, and typed here.
 */
type Renderer = {
  renderCardFormPage(template: string, query: URLSearchParams): Promise<string>;
  pageKey(query: URLSearchParams): string;
  FORM_MARK: string;
};

let renderer: Promise<Renderer> | undefined;
const load = () => (renderer ??= import(new URL('../../iframe-app/ssr/render.ts', import.meta.url).href) as Promise<Renderer>);

/** The pages the service renders: the built page has the form's mark. */
export const rendersForm = (html: string) => html.includes('<!--cpe:form-->');

/** Starts loading Lit and the form's code now (a second or so), so that the first frame does not wait for it. */
export function warmFrameRenderer(): void {
  load().catch(() => {});
}

/**
 * The page for `query` from the built `template`, and the key of what it depends on (the language,
 * layout, theme and marks of the address: the keys and the fragment do not change it).
 */
export async function renderFramePage(template: string, query: URLSearchParams): Promise<{ key: string; html: () => Promise<string> }> {
  const r = await load();
  return { key: r.pageKey(query), html: () => r.renderCardFormPage(template, query) };
}
