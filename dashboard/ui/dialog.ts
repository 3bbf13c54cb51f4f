import { html, type TemplateResult } from 'lit';

/**
 * A modal dialog in a page's template: a native <dialog> (opened with showModal(): focus moves in and
 * stays, Escape closes it, focus returns to the button that opened it), titled by its heading. Its
 * form's submit (Enter, or the confirming button) runs `onSubmit`; the page closes it when done.
 */
export function dialog(options: { id: string; title: string; body: TemplateResult; actions: TemplateResult; onSubmit?: () => void; onClose?: () => void }) {
  const { id, title, body, actions, onSubmit, onClose } = options;
  return html`<dialog id=${id} aria-labelledby="${id}-title" @close=${() => onClose?.()}>
    <form
      @submit=${(event: SubmitEvent) => {
        event.preventDefault();
        onSubmit?.();
      }}
    >
      <div class="dialog-body">
        <h2 id="${id}-title">${title}</h2>
        ${body}
      </div>
      <div class="dialog-actions">${actions}</div>
    </form>
  </dialog>`;
}

/** Opens a page's dialog by id. */
export function openDialog(host: Element, id: string): HTMLDialogElement {
  const element = host.querySelector<HTMLDialogElement>(`#${id}`)!;
  if (!element.open) element.showModal();
  return element;
}

export function closeDialog(host: Element, id: string): void {
  host.querySelector<HTMLDialogElement>(`#${id}`)?.close();
}

/** The Cancel button of a dialog. */
export const cancelButton = (host: Element, id: string, label = 'Cancel') =>
  html`<button type="button" value="cancel" @click=${() => closeDialog(host, id)}>${label}</button>`;
