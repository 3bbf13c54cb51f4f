import { html } from 'lit';
import { EVENT_GROUPS, PAYMENT_EVENT_TYPES } from '../app/event-types.ts';

/** What the endpoint form holds: the URL, and all events or a choice of types. */
export interface EndpointForm {
  url: string;
  all: boolean;
  types: string[];
}

const CHOICES = [...EVENT_GROUPS, ...PAYMENT_EVENT_TYPES];

/** The URL and the events to send, for Add endpoint and Edit. */
export function endpointFields(form: EndpointForm, change: (form: EndpointForm) => void) {
  const toggle = (type: string, on: boolean) => change({ ...form, types: on ? [...form.types, type] : form.types.filter((t) => t !== type) });
  return html`<label
      >Endpoint URL
      <input
        id="endpoint-url"
        type="url"
        required
        placeholder="https://example.com/webhooks"
        .value=${form.url}
        @input=${(event: Event) => change({ ...form, url: (event.target as HTMLInputElement).value })}
    /></label>
    <fieldset class="card">
      <legend>Events to send</legend>
      <label class="check"><input type="radio" name="scope" .checked=${form.all} @change=${() => change({ ...form, all: true })} /> All events</label>
      <label class="check"><input type="radio" name="scope" .checked=${!form.all} @change=${() => change({ ...form, all: false })} /> Selected events</label>
      ${form.all
        ? ''
        : html`<div class="event-choices">
            ${CHOICES.map(
              (type) =>
                html`<label class="check"><input type="checkbox" .checked=${form.types.includes(type)} @change=${(event: Event) => toggle(type, (event.target as HTMLInputElement).checked)} /> <code>${type}</code></label>`,
            )}
          </div>`}
    </fieldset>`;
}

/** The form as the API takes it, or the sentence that says what to fix. */
export function readEndpointForm(host: Element, form: EndpointForm): { url: string; enabled_events: string[] } | string {
  const input = host.querySelector<HTMLInputElement>('#endpoint-url');
  const url = form.url.trim();
  if (!url || (input && !input.checkValidity())) return 'Enter the endpoint\'s URL, such as https://example.com/webhooks.';
  if (!form.all && !form.types.length) return 'Choose at least one event, or All events.';
  return { url, enabled_events: form.all ? ['*'] : form.types };
}
