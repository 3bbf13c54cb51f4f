// The event log of every demo page: each cpe:* event as it reaches the page, name and detail (never
// card data); and showVerify, which asks the demo backend to verify an intent and shows the answer.
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
