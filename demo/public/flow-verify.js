import { showVerify } from './log.js';

// The Flow pages' only script (they pay without it): the event log, and the backend's verify once a
// Flow ends, as the spec's verification rules ask.
document.addEventListener('cpe:authorise:end', async (event) => {
  const id = event.detail?.paymentIntentId ?? (await event.target.controller?.getPaymentIntentId?.());
  if (id) await showVerify(id);
});
