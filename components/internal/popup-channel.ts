import { POPUP_INIT_TYPE } from '../../protocol/runtime/popup.ts';
import { PopupClose, PopupReady } from '../../protocol/runtime/dialog-guards.ts';
import { conforms } from '../../protocol/runtime/json-guard.ts';
import type { ColorScheme, DialogTexts } from '../../protocol/schemas/bridge.ts';
import type { PopupIntent } from '../../protocol/schemas/popup.ts';

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
 * The SDK's end of the one page-to-popup channel (protocol/schemas/popup.ts): the service's page
 * `url` (a fresh uuid put in its fragment) in a native modal `<dialog>` inside `root` (top layer,
 * `role=dialog` and `aria-modal` from showModal): a title bar (`title`, and a close button named
 * "Cancel" in the frames' language) over the page's iframe, nothing below it, in the element's
 * colour scheme. The dialog itself takes the focus (no ring on the title; Tab reaches the page's
 * controls, then the close button), and focus goes back where it was on close.
 *
 * On the window only the service origin's messages from this iframe's window count, with the uuid:
 * each `ready` gets an init (the uuid, and `intent` once it resolves) with port2 of a fresh channel,
 * to the service origin only; a close (it carries nothing) may come there too. On the port, only
 * messages with the uuid count: a new height, a close, or what `result` accepts (the page's own
 * guard). Resolves that result; undefined when closed: the page's close, Escape (in the dialog),
 * the close button, or `signal`.
 */
export function popup<T>(
  root: ParentNode,
  origin: string,
  url: string,
  view: { title: string; frame: string; look: DialogLook },
  signal: AbortSignal,
  part: string,
  result: (data: unknown) => T | undefined,
  /** Never rejects (a failed intent closes the popup by `signal`, its owner's). */
  intent?: Promise<PopupIntent | void>,
): Promise<T | undefined> {
  const session = crypto.randomUUID();
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
  const ours = (data: { session?: unknown } | null) => data?.session === session;
  // The dialog fits the page's content (never taller than the screen allows).
  const fit = ({ height }: { height?: number }) => {
    if (height) iframe.style.height = `min(${height}px, calc(100dvh - 53px))`;
  };
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
      // The frame's window (never null while the dialog is in the page, so neither is `source` here).
      if (from !== origin || source !== iframe.contentWindow) return;
      if (!ours(data)) return;
      if (conforms(PopupClose, data)) return cancel();
      if (!conforms(PopupReady, data)) return;
      fit(data);
      void Promise.resolve(intent).then((intent) => {
        const { port1, port2 } = new MessageChannel();
        port1.onmessage = ({ data }) => {
          if (!ours(data)) return;
          if (conforms(PopupReady, data)) return fit(data);
          if (conforms(PopupClose, data)) return cancel();
          const outcome = result(data);
          if (outcome !== undefined) done(outcome);
        };
        source!.postMessage({ type: POPUP_INIT_TYPE, session, intent }, { targetOrigin: origin, transfer: [port2] });
      });
    };
    addEventListener('message', listen);
    signal.addEventListener('abort', cancel);
    dialog.addEventListener('cancel', (event) => {
      event.preventDefault();
      cancel();
    });
    dialog.querySelector('button')!.addEventListener('click', cancel);
    iframe.src = `${url}#${session}`;
    root.append(dialog);
    dialog.showModal();
    if (signal.aborted) return cancel();
    dialog.focus();
    trap();
  });
}
