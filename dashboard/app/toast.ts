/** A short message after an action ("Refund of £5.00 created"), shown by the shell and announced politely. */
export const TOAST_EVENT = 'dash:toast';

export function toast(message: string): void {
  window.dispatchEvent(new CustomEvent(TOAST_EVENT, { detail: message }));
}
