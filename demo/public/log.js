// The event log of the demo's pages (the Flow pages have no other script): every cpe:* event as it
// reaches the page, name and detail (never card data), and the backend's verify once a Flow ends.
const log = document.getElementById('log');
const EVENTS = ['cpe:ready', 'cpe:change', 'cpe:processing:start', 'cpe:processing:end', 'cpe:attach:start', 'cpe:attach:end',
  'cpe:confirm:start', 'cpe:confirm:end', 'cpe:challenge:start', 'cpe:challenge:end', 'cpe:authorise:start', 'cpe:authorise:end',
  'cpe:error', 'cpe:availability'];
for (const name of EVENTS) {
  document.addEventListener(name, (event) => {
    const item = document.createElement('li');
    item.textContent = `${new Date().toLocaleTimeString()} ${name} ${JSON.stringify(event.detail ?? {})}`;
    log.prepend(item);
  });
}

/** Shows the backend's verify of an intent (the demo backend calls the service with its licence key). */
export async function showVerify(paymentIntentId) {
  const verify = await fetch('/api/verify', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ payment_intent_id: paymentIntentId }),
  }).then((r) => r.json());
  document.getElementById('verify').textContent = JSON.stringify(verify, null, 2);
  return verify;
}

// A Flow's end: verify on the backend, as the spec's verification rules ask.
document.addEventListener('cpe:authorise:end', async (event) => {
  const id = event.detail?.paymentIntentId ?? (await event.target.controller?.getPaymentIntentId?.());
  if (id) await showVerify(id);
});
