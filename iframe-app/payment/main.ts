import { cardFrameApp } from '../shared/card-app.ts';
import { startFrame } from '../shared/host.ts';
import { loadCatalogue } from '../shared/i18n.ts';
import { PaymentForm } from './payment-form.ts';

void startFrame((params) => {
  const form = new PaymentForm('pay', params.lang);
  form.offer(params.methods, params.button);
  return cardFrameApp(form, params, { flowState: (state) => (form.setFlowState(state), {}) });
}, loadCatalogue);
