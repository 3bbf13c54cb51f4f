import { cardFrameApp } from '../shared/card-app.ts';
import { startFrame } from '../shared/host.ts';
import { loadCatalogue } from '../shared/i18n.ts';
import { FlowForm } from './flow-form.ts';

void startFrame((params) => {
  if (!params.flow) return undefined;
  const form = new FlowForm(params.flow, params.lang);
  return cardFrameApp(form, params, { flowState: (state) => (form.setFlowState(state), {}) });
}, loadCatalogue);
