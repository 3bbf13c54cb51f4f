import { html } from 'lit';
import { words } from '../app/format.ts';

type Tone = 'ok' | 'warn' | 'bad' | 'info' | 'none';

/** A payment's chip as Stripe's Dashboard words it: Succeeded, Uncaptured, Refunded, Incomplete… */
export function paymentChip(intent: { status: string; amount?: number; amount_refunded?: number }) {
  const refunded = intent.amount_refunded ?? 0;
  let label = words(intent.status);
  let tone: Tone = 'none';
  if (intent.status === 'succeeded') {
    if (refunded > 0 && intent.amount !== undefined && refunded >= intent.amount) label = 'Refunded';
    else if (refunded > 0) [label, tone] = ['Partially refunded', 'info'];
    else tone = 'ok';
  } else if (intent.status === 'requires_capture') [label, tone] = ['Uncaptured', 'warn'];
  else if (intent.status === 'failed') tone = 'bad';
  else if (intent.status !== 'cancelled') [label, tone] = ['Incomplete', 'none'];
  return html`<span class="chip ${tone}" title=${intent.status}>${label}</span>`;
}

/** A chip for an HTTP status (request log, webhook attempts). */
export function httpChip(status: number | null | undefined) {
  if (status === null || status === undefined || status === 0) return html`<span class="chip bad">No answer</span>`;
  const tone: Tone = status < 300 ? 'ok' : status < 500 ? 'warn' : 'bad';
  return html`<span class="chip ${tone}">${status}</span>`;
}

/** A chip for any other status word (refunds, endpoints, attempts). */
export function statusChip(status: string) {
  const tone: Tone = ['succeeded', 'enabled', 'delivered'].includes(status)
    ? 'ok'
    : ['pending', 'retrying', 'scheduled'].includes(status)
      ? 'warn'
      : ['failed', 'disabled'].includes(status)
        ? 'bad'
        : 'none';
  return html`<span class="chip ${tone}">${words(status)}</span>`;
}
