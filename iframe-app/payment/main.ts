import { cardFrameApp } from '../shared/card-app.ts';
import { startFrame } from '../shared/host.ts';
import { textsAtWidth } from '../shared/known-width.ts';
import { PaymentForm } from './payment-form.ts';

void startFrame((params) => {
  const form = new PaymentForm('pay', params.lang);
  form.offer(params.methods, params.button);
  return cardFrameApp(form, params, { flowState: (state) => (form.setFlowState(state), {}) });
}, textsAtWidth);
