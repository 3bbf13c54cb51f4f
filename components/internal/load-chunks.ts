import { SdkError } from '../errors.ts';
import { sheet } from './styles.ts';

/**
 * The SDK's chunks fetched from the service on demand, not with cpe.js: the dialogs (dialogs.ts)
 * and the payment code (payment-steps.ts). When one cannot be fetched (offline, the service gone)
 * its load rejects at once with an SdkError `network_error` saying so: the operation that asked
 * fails with `cpe:error` like any request that did not go through, and nothing waits. A later call
 * imports again: a browser that keeps a failed module for the page's life (Chromium 156.0.8078.73)
 * rejects it the same way at once, one that fetches it again (156.0.8078.108) goes on if the network is back.
 */
async function load<T>(what: string, chunk: () => Promise<T>): Promise<T> {
  try {
    return await chunk();
  } catch (cause) {
    throw new SdkError('network_error', `The ${what} could not be loaded from the service: check the connection and reload the page.`, undefined, { cause });
  }
}

/** The dialogs' chunk, the first time a challenge or a wallet sheet opens, with its styles added to `root`. */
export async function loadDialogs(root: ShadowRoot): Promise<typeof import('./dialogs.ts')> {
  const dialogs = await load('payment dialog', () => import('./dialogs.ts'));
  const css = sheet(dialogs.DIALOG_CSS + dialogs.SHEET_CSS);
  if (!root.adoptedStyleSheets.includes(css)) root.adoptedStyleSheets = [...root.adoptedStyleSheets, css];
  return dialogs;
}

/** The payment code's chunk: attach, confirm, authorise and `pay()`'s steps (FrameHost.paymentCode). */
export const loadPayment = (): Promise<typeof import('./payment-steps.ts')> => load('payment code', () => import('./payment-steps.ts'));

/**
 * The shopper started on an element (typed into a card form, pressed a wallet button): the payment
 * code is fetched now rather than when Pay is pressed; with `dialogs`, the dialogs too (a wallet's
 * sheet is next). A failure here is said by the operation that needs the chunk.
 */
export function prefetch(dialogs: boolean): void {
  loadPayment().catch(() => {});
  if (dialogs) import('./dialogs.ts').catch(() => {});
}
