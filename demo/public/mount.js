/**
 * Mounted and ready (a wallet unavailable here renders nothing and is never ready): a page says so by
 * body[data-ready] only after this, so a shopper's or a test's first click reaches a live control.
 */
export async function mounted(element) {
  await element.init();
  if ((await element.availability)?.available !== false) await element.awaitReady();
}
