import type { FrameConfig } from '../../protocol/schemas/bridge.ts';
import type { FrameParams } from '../../protocol/schemas/frame-url.ts';
import type { Handlers } from '../../protocol/runtime/rpc.ts';
import type { CardInputs } from './card-inputs.ts';
import { emitFrameEvent, type FrameApp } from './frame-app.ts';
import { checkSession, refusal } from './session-check.ts';
import { isPaid } from '../../protocol/runtime/intent-status.ts';

/**
 * The frame app of a card element (card form, card field, Flow): the card schemes' display, the
 * session (taken only once the service says it is the address's merchant's, and that intent's when
 * the address names one: session-check.ts), `extra`, and tokenise, reset and focus. A card that
 * produced a token for a payment that then went through is not tokenised again until `reset()`.
 * `extra` adds the element's own methods (the Flow's `flowState`).
 */
export function cardFrameApp(element: CardInputs, params: FrameParams, extra: Handlers = {}): FrameApp {
  // The marks of the address (the service rendered them), until a config says otherwise.
  if (params.marks) element.display = params.marks;
  /** The session's check by the service (the frames that tokenise or read the intent only). */
  let checked: Promise<unknown> = Promise.resolve();
  let checking: string | undefined;
  /** The session of the last token, and whether its payment went through (then locked until reset). */
  let spent: FrameConfig['session'];
  let locked = false;

  const configure = (config: FrameConfig) => {
    element.pubKey = config.pubKey;
    if (config.cardSchemesDisplay) element.display = config.cardSchemesDisplay;
    const session = config.session;
    const options = config.extra ?? {};
    if (session && element.fields.includes('number') && session.sessionToken !== checking) {
      checking = session.sessionToken;
      // A new session after a token: did that token's payment go through? (The same session's
      // intent refuses a second card itself.) Unknown counts as yes.
      const paid = spent && !locked && checkSession(params.pk, spent, params.ok).then(
        (intent) => isPaid(intent.status),
        () => true,
      );
      checked = Promise.all([checkSession(params.pk, session, params.ok), paid]).then(([, wasPaid]) => {
        if (wasPaid) locked = true;
        if (checking !== session.sessionToken) return;
        element.session = session;
        element.applyExtra(options);
      });
      checked.catch((error: { code: string; message: string }) => emitFrameEvent(element, { name: 'error', detail: error }));
    }
    element.applyExtra(options);
  };
  const tokenise = async () => {
    await checked;
    if (locked) throw refusal('fields_locked', 'This card paid a payment that went through: reset() the form before another payment.');
    const result = await element.tokenise();
    spent = element.session;
    return result;
  };
  return {
    element,
    configure,
    handlers: {
      tokenise,
      reset: () => (element.reset(), (locked = false), (spent = undefined), {}),
      focus: ({ position }) => (element.focusAt(position), {}),
      fix: ({ field, clear, message }) => ({ focused: element.fix(field, clear, message) }),
      ...extra,
    },
    title: () => (element.fields.length === 1 ? element.catalogue[element.fields[0]!] : element.catalogue.formTitle),
  };
}
