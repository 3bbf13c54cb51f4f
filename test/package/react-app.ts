import { SHOP_BACKEND } from './fresh-project.ts';

/** The shop: a React page (the SDK from the service, the components from cpe/react) and its backend. */
export const APP: Record<string, string> = {
  'index.html': `<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><title>Shop</title><link rel="icon" href="data:,">
<script type="module" src="%VITE_CPE_SERVICE%/sdk/cpe.js"></script></head>
<body><div id="root"></div><script type="module" src="/src/main.tsx"></script></body>
</html>
`,
  'vite.config.mjs': `export default { oxc: { jsx: { runtime: 'automatic' } }, logLevel: 'warn' };\n`,
  'src/main.tsx': `
import { StrictMode, useState } from 'react';
import { createRoot } from 'react-dom/client';
import { CpeElements, CpePayment, useCpe, useElement } from 'cpe/react';

/** A sibling of the element: it reaches it and the intent through the provider, no ref. */
function PayButton() {
  const payment = useElement('cpe-payment');
  const { paymentIntentId } = useCpe();
  const [status, setStatus] = useState('');
  async function pay() {
    setStatus('paying');
    const result = await payment!.pay();
    if (result.error) return setStatus(\`failed: \${result.error.message}\`);
    // Events and pay() are never proof of payment: the backend verifies.
    const verified = await (await fetch('/api/verify', { method: 'POST' })).json();
    setStatus(\`paid: \${verified.status} \${verified.intent_status}\`);
  }
  return (
    <>
      <button disabled={!payment || !paymentIntentId} onClick={pay}>Pay</button>
      <output>{status || (paymentIntentId ? 'ready' : 'loading')}</output>
      <p id="intent">{paymentIntentId}</p>
    </>
  );
}

function Checkout() {
  return (
    <CpeElements pubKey={import.meta.env.VITE_CPE_PUBLIC_KEY} intentUrl="/api/intent" authoriseUrl="/api/cpe/authorise">
      <CpePayment methods={['card']} payButton={false} />
      <PayButton />
    </CpeElements>
  );
}

createRoot(document.getElementById('root')!).render(<StrictMode><Checkout /></StrictMode>);
`,
  'backend.mjs': SHOP_BACKEND,
};
