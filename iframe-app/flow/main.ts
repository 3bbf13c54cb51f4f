import { startFrame } from '../shared/host.ts';
import { FlowForm } from './flow-form.ts';

let form: FlowForm | undefined;
void startFrame((params) => (params.flow ? (form = new FlowForm(params.flow, params.lang)) : undefined), {
  flowState: (state) => (form!.setFlowState(state), {}),
});
