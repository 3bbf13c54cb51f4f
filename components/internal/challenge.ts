import { ChallengeMessage } from '../../protocol/runtime/dialog-guards.ts';
import { conforms } from '../../protocol/runtime/json-guard.ts';
import type { ChallengePayload } from '../../protocol/schemas/intent.ts';
import { SdkError } from '../errors.ts';
import { dispatchCpeEvent } from '../events.ts';
import { popup, type DialogLook } from './popup-channel.ts';
import type { ChallengeOutcome } from './options.ts';

/**
 * An element's 3-D Secure challenge: the page must be the service's (`at` names the element in the
 * SdkError otherwise); `cpe:challenge:start`, then the page in a modal in the element's shadow root
 * (closed when `signal` aborts: the element's frames went), `outcome` hears the result before anyone
 * else (the attempt records it), then `cpe:error` unless completed (the focus then goes to the
 * element), and `cpe:challenge:end`.
 *
 * The modal is titled "Verify your payment" in the element's language, the page itself in that
 * language and colour scheme (`lang` and `theme` added to its address); the frame is 390 px wide
 * (EMV window 02), 340 px tall (the test page) and full screen on narrow viewports (05). The page is
 * a popup of the one page-to-popup channel (popup-channel.ts): each of its documents gets its own
 * port, and its `{type: 'cpe:3ds:result'}` counts on that port for this transaction only; Escape
 * (in the dialog or inside the page, whose keys the dialog never sees), the close button or `signal`
 * cancel (undefined).
 */
export async function challenge(
  element: HTMLElement,
  at: string,
  origin: string,
  payload: ChallengePayload,
  look: DialogLook & { lang: string },
  signal: AbortSignal,
  outcome: (outcome: ChallengeOutcome) => void,
): Promise<ChallengeOutcome> {
  const url = new URL(payload.url, origin);
  if (url.origin !== origin) throw new SdkError('invalid_options', `${at}: the challenge url must be a page of the service (${origin})`, 'url');
  url.searchParams.set('lang', look.lang);
  url.searchParams.set('theme', look.scheme);
  // The fragment is the popup's own uuid (popup-channel.ts adds it).
  url.hash = '';
  dispatchCpeEvent(element, 'cpe:challenge:start', {});
  const texts = look.texts;
  const result = await popup(
    element.shadowRoot!,
    origin,
    url.href,
    { title: texts?.title ?? 'Verify your payment', frame: texts?.frame ?? '3-D Secure verification', look },
    signal,
    'challenge',
    (data) => (conforms(ChallengeMessage, data) && data.transaction_id === payload.transaction_id ? data.status : undefined),
  );
  outcome(result);
  // Not completed: the shopper goes on in the element (its fields kept), wherever the focus was before.
  if (result !== 'completed' && !signal.aborted) element.focus();
  if (result !== 'completed')
    dispatchCpeEvent(
      element,
      'cpe:error',
      result
        ? { message: '3-D Secure authentication failed.', code: 'authentication_failed', operation: 'challenge' }
        : { message: '3-D Secure authentication was cancelled.', code: 'challenge_cancelled', operation: 'challenge' },
    );
  dispatchCpeEvent(element, 'cpe:challenge:end', { status: result ?? 'cancelled' });
  return result;
}
