import type { ColorScheme, DialogTexts } from '../../protocol/schemas/bridge.ts';
import { CHALLENGE_INIT_TYPE, CHALLENGE_READY_TYPE } from '../../protocol/runtime/challenge-types.ts';
import { ChallengeCancel, ChallengeMessage } from '../../protocol/runtime/guards.ts';
import type { ChallengePayload } from '../../protocol/schemas/intent.ts';
import { conforms } from '../../protocol/runtime/json-guard.ts';

/** The focused element, looking into open shadow roots (where `document.activeElement` stops). */
function deepActive(): HTMLElement | null {
  let active = document.activeElement;
  while (active?.shadowRoot?.activeElement) active = active.shadowRoot.activeElement;
  return active as HTMLElement | null;
}

let count = 0;

/** How a dialog looks and speaks: the element's colour scheme and its frames' language (English until a frame told). */
export interface DialogLook {
  scheme: ColorScheme;
  texts?: DialogTexts;
}

const escape = (text: string) => text.replace(/[&<>"]/g, (c) => `&#${c.charCodeAt(0)};`);

/**
 * A service page in a native modal `<dialog>` inside `root` (top layer, `role=dialog` and
 * `aria-modal` from showModal): a title bar (`title`, and a close button named "Cancel" in the
 * frames' language) over the page's iframe, nothing below it, in the element's colour scheme. The
 * dialog itself takes the focus (no ring on the title; Tab reaches the page's controls, then the close button),
 * and focus goes back where it was on close. Escape (in the dialog), the close button, or `signal`
 * cancel (undefined). `onMessage` hears only the service origin's messages from this frame's window;
 * it calls `done` with the outcome.
 */
export function modal<T>(
  root: ParentNode,
  origin: string,
  src: string,
  view: { title: string; frame: string; look: DialogLook },
  signal: AbortSignal,
  onMessage: (data: any, done: (outcome?: T) => void, iframe: HTMLIFrameElement) => void,
  part: string,
): Promise<T | undefined> {
  const { scheme, texts } = view.look;
  const id = `cpe-dialog-${++count}`;
  const dialog = document.createElement('dialog');
  dialog.part = part;
  dialog.className = `${part} ${scheme}`;
  dialog.tabIndex = -1;
  dialog.setAttribute('aria-labelledby', id);
  if (texts) (dialog.lang = texts.lang), (dialog.dir = texts.dir);
  // The close button comes after the page in the tab order (Tab from the dialog reaches the page's
  // controls first) and shows in the title bar.
  dialog.innerHTML = `<header><h2 id="${id}">${escape(view.title)}</h2></header><iframe title="${escape(view.frame)}" allow="payment"></iframe><button type="button" class="close" part="${part}-cancel" aria-label="${escape(texts?.cancel ?? 'Cancel')}">×</button>`;
  const iframe = dialog.querySelector('iframe')!;
  const previous = deepActive();
  return new Promise((resolve) => {
    // The modal makes the page inert, but Chromium still lets Shift+Tab out of the dialog's
    // cross-origin frame land in another frame of the page (no focus event tells the page): while
    // open, focus found outside the dialog is brought back to it, every frame.
    let frame = 0;
    const trap = () => {
      const active = deepActive();
      if (active && active !== document.body && !dialog.contains(active)) dialog.focus();
      frame = requestAnimationFrame(trap);
    };
    const done = (outcome?: T) => {
      cancelAnimationFrame(frame);
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
    dialog.querySelector('button')!.addEventListener('click', cancel);
    iframe.src = src;
    root.append(dialog);
    dialog.showModal();
    if (signal.aborted) return cancel();
    dialog.focus();
    trap();
  });
}

/**
 * Shows the service's 3-D Secure challenge page in a modal (titled "Verify your payment" in the
 * element's language), the page itself in that language and colour scheme (`lang` and `theme` added
 * to its address). The frame is 390 px wide (EMV window 02), 340 px tall (the test page) and full screen on narrow viewports (05).
 * Escape (in the dialog), the close button, or Escape inside the challenge page (another origin,
 * whose keys the dialog never sees: the page posts `{type: 'cpe:3ds:cancel'}`) cancel.
 *
 * Each page of the challenge says `ready` with the uuid the SDK put in its address's fragment (only
 * from the service origin and this frame's window); the SDK hands it a fresh MessageChannel port, and
 * the page's `{type: 'cpe:3ds:result'}` or cancel comes back on that port, for this transaction only
 * (protocol/schemas/challenge.ts): nothing of the challenge travels on a window. Resolves `completed` or
 * `failed`; `undefined` when the shopper cancels or `signal` aborts (the element was removed).
 */
export function showChallenge(
  root: ParentNode,
  origin: string,
  challenge: ChallengePayload,
  signal: AbortSignal,
  look: DialogLook & { lang: string },
): Promise<'completed' | 'failed' | undefined> {
  const url = new URL(challenge.url);
  url.searchParams.set('lang', look.lang);
  url.searchParams.set('theme', look.scheme);
  const uuid = (url.hash = crypto.randomUUID());
  const texts = look.texts;
  return modal<'completed' | 'failed'>(
    root,
    origin,
    url.href,
    { title: texts?.title ?? 'Verify your payment', frame: texts?.frame ?? '3-D Secure verification', look },
    signal,
    (data, done, iframe) => {
      if (data?.type !== CHALLENGE_READY_TYPE || data.session !== uuid) return;
      const { port1, port2 } = new MessageChannel();
      port1.onmessage = ({ data }) => {
        if (data?.transaction_id !== challenge.transaction_id) return;
        if (conforms(ChallengeMessage, data)) done(data.status);
        else if (conforms(ChallengeCancel, data)) done();
      };
      iframe.contentWindow!.postMessage({ type: CHALLENGE_INIT_TYPE, session: uuid }, { targetOrigin: origin, transfer: [port2] });
    },
    'challenge',
  );
}
