import { ChallengePageData } from '../../protocol/runtime/guards.ts';
import { conforms } from '../../protocol/runtime/json-guard.ts';
import { PopupPage } from '../shared/popup-page.ts';

/**
 * The 3-D Secure challenge page's script: built by `vite build` (vite.config.ts, `challengePageBuild`)
 * into dist/pages/challenge.js, which the service puts inline into every challenge page and allows
 * by its hash (server/payments/challenge-page.ts): no 'unsafe-inline', no nonce, no file of its own.
 * What differs per page (the origins whose init it accepts, the answer page's result) is a JSON data
 * block the service renders, never run.
 *
 * The page is a popup of the one page-to-popup channel (shared/popup-page.ts): it says ready, takes
 * one init per document, sends the answer page's result on the port, and Escape closes it. The form
 * keeps the fragment (the popup's uuid) so the answer's page can do the same: its buttons are
 * rendered disabled and enabled only once the fragment is in its action (a shopper quicker than the
 * script would post an answer whose page cannot reach the SDK).
 */
const data: unknown = JSON.parse(document.getElementById('cpe-challenge')?.textContent ?? 'null');
if (conforms(ChallengePageData, data)) {
  const popup = new PopupPage(undefined, data.origins);
  const form = document.querySelector('form');
  if (form) {
    form.action += location.hash;
    for (const button of form.querySelectorAll('button')) button.disabled = false;
    // The page is another origin than the merchant's dialog, which never sees this key.
    addEventListener('keydown', (event) => {
      if (event.key !== 'Escape') return;
      event.preventDefault();
      popup.close();
    });
  }
  if (data.result) popup.send(data.result);
  popup.ready();
}
