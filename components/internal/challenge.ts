import type { ChallengePayload } from '../../protocol/schemas/intent.ts';
import { SdkError } from '../errors.ts';
import { dispatchCpeEvent } from '../events.ts';
import { showChallenge, type DialogLook } from './challenge-dialog.ts';
import type { ChallengeOutcome } from './options.ts';

/**
 * An element's 3-D Secure challenge: the page must be the service's (`at` names the element in the
 * SdkError otherwise); `cpe:challenge:start`, the modal in the element's shadow root (closed when
 * `signal` aborts: the element's frames went), `outcome` hears the result before anyone else (the
 * attempt records it), then `cpe:error` unless completed (the focus then goes to the element), and
 * `cpe:challenge:end`.
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
  dispatchCpeEvent(element, 'cpe:challenge:start', {});
  const result = await showChallenge(element.shadowRoot!, origin, { ...payload, url: url.href }, signal, look);
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
