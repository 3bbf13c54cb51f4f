import type { ChallengeCancel as CancelMessage, ChallengeMessage as ResultMessage } from '../../protocol/challenge.ts';
import { ChallengeCancel, ChallengeMessage } from '../../protocol/generated/guards.ts';
import type { ChallengePayload } from '../../protocol/intent.ts';
import { conforms } from '../../protocol/json-guard.ts';

/** The focused element, looking into open shadow roots (where `document.activeElement` stops). */
function deepActive(): HTMLElement | null {
  let active = document.activeElement;
  while (active?.shadowRoot?.activeElement) active = active.shadowRoot.activeElement;
  return active as HTMLElement | null;
}

let count = 0;

/**
 * Shows the service's 3-D Secure challenge page in a native modal `<dialog>` inside `root` (top
 * layer, `role=dialog` and `aria-modal` from showModal, named by its heading "Verify your payment").
 * The frame is 390×400 (EMV window 02) and full screen on narrow viewports (05). Focus moves to the
 * dialog's heading (Tab goes on into the page's buttons) and back to where it was on close. Escape
 * (in the dialog), the Cancel button, or Escape inside the challenge page (another origin, whose
 * keys the dialog never sees: the page posts `{type: 'cpe:3ds:cancel'}`) cancel.
 *
 * Resolves `completed` or `failed` from the page's `{type: 'cpe:3ds:result'}` message; both
 * messages (protocol/challenge.ts) are accepted only from the service origin, from this frame's
 * window and for this transaction. `undefined` when the shopper cancels or `signal` aborts (the
 * element was removed).
 */
export function showChallenge(root: ParentNode, origin: string, challenge: ChallengePayload, signal: AbortSignal): Promise<'completed' | 'failed' | undefined> {
  const dialog = document.createElement('dialog');
  const id = `cpe-challenge-${++count}`;
  dialog.part = 'challenge';
  dialog.setAttribute('aria-labelledby', id);
  dialog.innerHTML = `<h2 id="${id}" tabindex="-1">Verify your payment</h2><iframe title="3-D Secure verification" allow="payment"></iframe><button type="button" part="challenge-cancel">Cancel</button>`;
  const iframe = dialog.querySelector('iframe')!;
  const previous = deepActive();
  return new Promise((resolve) => {
    const done = (outcome?: 'completed' | 'failed') => {
      removeEventListener('message', onMessage);
      signal.removeEventListener('abort', cancel);
      dialog.close();
      dialog.remove();
      previous?.focus();
      resolve(outcome);
    };
    const cancel = () => done();
    const onMessage = ({ origin: from, source, data }: MessageEvent) => {
      if (from !== origin || !source || source !== iframe.contentWindow || data?.transaction_id !== challenge.transaction_id) return;
      if (conforms<ResultMessage>(ChallengeMessage, data)) done(data.status);
      else if (conforms<CancelMessage>(ChallengeCancel, data)) cancel();
    };
    addEventListener('message', onMessage);
    signal.addEventListener('abort', cancel);
    dialog.addEventListener('cancel', (event) => {
      event.preventDefault();
      cancel();
    });
    dialog.lastElementChild!.addEventListener('click', cancel);
    iframe.src = challenge.url;
    root.append(dialog);
    dialog.showModal();
    if (signal.aborted) return cancel();
    (dialog.firstElementChild as HTMLElement).focus();
  });
}
