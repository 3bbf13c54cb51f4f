import { SdkError } from '../errors.ts';
import { sheet } from './styles.ts';

/**
 * The dialogs' chunk (dialogs.ts), fetched from the service the first time a challenge or a wallet
 * sheet opens, and its styles added to `root`. When it cannot be fetched (offline, the service gone)
 * this rejects at once with an SdkError `network_error` saying so: the operation that asked fails
 * with `cpe:error` like any request that did not go through, and nothing waits. Every later call on
 * that page rejects the same way at once: the browser does not fetch a failed module again.
 */
export async function loadDialogs(root: ShadowRoot): Promise<typeof import('./dialogs.ts')> {
  let dialogs: typeof import('./dialogs.ts');
  try {
    dialogs = await import('./dialogs.ts');
  } catch (cause) {
    // The browser keeps a failed module for the page's life (Chromium fetches it again only after a reload).
    throw new SdkError('network_error', 'The payment dialog could not be loaded from the service (the SDK fetches it when it is first needed). Check the connection and reload the page.', undefined, { cause });
  }
  const css = sheet(dialogs.DIALOG_CSS + dialogs.SHEET_CSS);
  if (!root.adoptedStyleSheets.includes(css)) root.adoptedStyleSheets = [...root.adoptedStyleSheets, css];
  return dialogs;
}
