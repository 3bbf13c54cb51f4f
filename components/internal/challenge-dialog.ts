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
 * A service page in a native modal `<dialog>` inside `root` (top layer, `role=dialog` and
 * `aria-modal` from showModal): `inner` holds its iframe (and a heading, a Cancel button). Focus
 * moves in (to the `tabindex` heading, else the frame) and back to where it was on close. Escape
 * (in the dialog), a button, or `signal` cancel (undefined). `onMessage` hears only the service
 * origin's messages from this frame's window; it calls `done` with the outcome.
 */
export function modal<T>(
  root: ParentNode,
  origin: string,
  src: string,
  inner: string,
  signal: AbortSignal,
  onMessage: (data: any, done: (outcome?: T) => void, iframe: HTMLIFrameElement) => void,
  part: string,
): Promise<T | undefined> {
  const dialog = document.createElement('dialog');
  dialog.part = dialog.className = part;
  dialog.innerHTML = inner;
  const iframe = dialog.querySelector('iframe')!;
  const heading = dialog.querySelector('h2');
  if (heading) dialog.setAttribute('aria-labelledby', heading.id);
  else dialog.setAttribute('aria-label', iframe.title);
  const previous = deepActive();
  return new Promise((resolve) => {
    const done = (outcome?: T) => {
      removeEventListener('message', listen);
      signal.removeEventListener('abort', cancel);
      dialog.close();
      dialog.remove();
      previous?.focus();
      resolve(outcome);
    };
    const cancel = () => done();
    const listen = ({ origin: from, source, data }: MessageEvent) => {
      if (from === origin && source && source === iframe.contentWindow) onMessage(data, done, iframe);
    };
    addEventListener('message', listen);
    signal.addEventListener('abort', cancel);
    dialog.addEventListener('cancel', (event) => {
      event.preventDefault();
      cancel();
    });
    dialog.querySelector('button')?.addEventListener('click', cancel);
    iframe.src = src;
    root.append(dialog);
    dialog.showModal();
    if (signal.aborted) return cancel();
    (dialog.querySelector<HTMLElement>('[tabindex]') ?? iframe).focus();
  });
}

/**
 * Shows the service's 3-D Secure challenge page in a modal (named by its heading "Verify your
 * payment"). The frame is 390×400 (EMV window 02) and full screen on narrow viewports (05). Escape
 * (in the dialog), the Cancel button, or Escape inside the challenge page (another origin, whose
 * keys the dialog never sees: the page posts `{type: 'cpe:3ds:cancel'}`) cancel.
 *
 * Resolves `completed` or `failed` from the page's `{type: 'cpe:3ds:result'}` message; both
 * messages (protocol/challenge.ts) are accepted only from the service origin, from this frame's
 * window and for this transaction. `undefined` when the shopper cancels or `signal` aborts (the
 * element was removed).
 */
export function showChallenge(root: ParentNode, origin: string, challenge: ChallengePayload, signal: AbortSignal): Promise<'completed' | 'failed' | undefined> {
  const id = `cpe-challenge-${++count}`;
  return modal<'completed' | 'failed'>(
    root,
    origin,
    challenge.url,
    `<h2 id="${id}" tabindex="-1">Verify your payment</h2><iframe title="3-D Secure verification" allow="payment"></iframe><button type="button" part="challenge-cancel">Cancel</button>`,
    signal,
    (data, done) => {
      if (data?.transaction_id !== challenge.transaction_id) return;
      if (conforms<ResultMessage>(ChallengeMessage, data)) done(data.status);
      else if (conforms<CancelMessage>(ChallengeCancel, data)) done();
    },
    'challenge',
  );
}
