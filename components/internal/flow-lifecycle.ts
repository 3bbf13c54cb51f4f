import type { CardField, FlowState } from '../../protocol/schemas/bridge.ts';
import type { FrameHost, HostController } from './frame-host.ts';
import type { Frame } from './frame.ts';
import { noop } from './frame-mount.ts';
import { pay } from './pay.ts';

/**
 * A Flow's frame: its `submit` runs the whole payment (pay.ts) while the frame shows processing,
 * then success, or failure with the reason (its code, said in the frame's language) and Try again.
 * A cancelled challenge goes straight back to the form, every field kept, with what happened said
 * under the button. Try again clears only the field that must change (the number of a declined
 * card, a wrong code) and focuses it; the expiry and the name stay. The next press is a new attempt.
 * Before an intent exists (Checkout Context) the frame's config has the amount its button shows.
 */
export function flowButton(host: FrameHost): void {
  const state = (frame: Frame, state: FlowState) => void frame.request('flowState', state).catch(noop);
  let fix: CardField | undefined;
  host.addController({
    // Checkout Context, before an intent exists: the amount the button shows.
    hostExtra(extra) {
      const controller = host.controller!;
      const context = !controller.current && controller.context;
      return { ...extra, ...(context && { amount: context.amount, currency: context.currency }) };
    },
    async hostFrameEvent(frame, name) {
      if (name === 'retry') {
        state(frame, { state: 'idle' });
        return fix ? host.fix(fix, true) : host.focus();
      }
      if (name !== 'submit') return;
      state(frame, { state: 'processing' });
      const { error } = await pay(host, {}, host.walletToken, false);
      // The field its refusal asks to change (the number of a declined card, a wrong code): Try again clears it.
      fix = (await host.paymentCode().catch(noop))?.fieldToFix(error?.code);
      if (!error) return state(frame, { state: 'success' });
      const said = { code: error.code.slice(0, 60), message: error.message.slice(0, 300) };
      // A field the service refused at tokenise: the form again, its message under it, focused.
      if (error.type === 'validation_error') return state(frame, { state: 'idle' }), host.fix(error.field!, false);
      // Nothing to change after a cancelled challenge: the form again, the focus in it (challenge.ts).
      state(frame, { state: error.code === 'challenge_cancelled' ? 'idle' : 'failure', ...said });
    },
  } satisfies HostController);
}
