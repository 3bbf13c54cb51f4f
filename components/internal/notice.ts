import type { SdkError } from '../errors.ts';
import type { FrameHost } from './frame-host.ts';
import { sheet } from './styles.ts';

/** Misuse the shopper cannot fix: said once in the console for the integrator (an element in HTML has no one to reject to). */
const SET_UP = ['unknown_public_key', 'origin_not_registered', 'invalid_options', 'sdk_loaded_twice'];

const CSS = `.notice{margin:0;padding:10px 12px;border:1px solid;border-radius:var(--cpe-radius,6px);font:14px/1.45 var(--cpe-font,system-ui,sans-serif);color:var(--cpe-fg,inherit)}.notice button{margin-inline-start:8px;font:inherit;color:inherit}`;

/**
 * An element that cannot show its form says so in one short line where the form would be, in the
 * frames' language when one spoke already (English otherwise), instead of an empty box:
 * "This payment form cannot be shown here." for a set-up problem (a key or origin the service does
 * not know; the SdkError names the fix), else "The payment form could not be loaded. Try again."
 * with a Try again button that mounts the element again. `null` removes the line.
 */
export function notice(host: FrameHost, error: SdkError | null, retry: () => void): void {
  const root = host.shadowRoot!;
  root.querySelector('.notice')?.remove();
  if (!error || !host.isConnected || error.code === 'invalid_mount_target') return;
  if (!root.adoptedStyleSheets.includes(sheet(CSS))) root.adoptedStyleSheets = [...root.adoptedStyleSheets, sheet(CSS)];
  const texts = host.look().texts;
  const setUp = SET_UP.includes(error.code);
  if (setUp) console.error(error.message);
  const line = document.createElement('p');
  line.className = 'notice';
  line.part = 'notice';
  line.setAttribute('role', 'alert');
  line.textContent = setUp ? (texts?.notHere ?? 'This payment form cannot be shown here.') : (texts?.loadFailed ?? 'The payment form could not be loaded. Try again.');
  if (!setUp) {
    const button = line.appendChild(document.createElement('button'));
    button.type = 'button';
    button.textContent = texts?.retry ?? 'Try again';
    button.onclick = retry;
  }
  root.append(line);
}
