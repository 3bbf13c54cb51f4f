import { cardFrameApp } from '../shared/card-app.ts';
import { startFrame } from '../shared/host.ts';
import { textsAtWidth } from '../shared/known-width.ts';
import { FlowForm } from './flow-form.ts';

void startFrame((params) => {
  if (!params.flow) return undefined;
  const form = new FlowForm(params.flow, params.lang);
  return cardFrameApp(form, params, { flowState: (state) => (form.setFlowState(state), {}) });
}, textsAtWidth);
