import { expect, oneEvent } from '@open-wc/testing';
import { createElements, CPE_EVENTS, dispatchCpeEvent, ElementsController, SdkError } from '../../components/index.ts';
import { defineElement } from '../../components/define.ts';
import type { PaymentIntentSession } from '../../protocol/schemas/session.ts';

const session: PaymentIntentSession = { paymentIntentId: 'pi_test_123', sessionToken: 'st_test_abc', opaqueKey: 'ok_test_xyz' };
const valid = () => ({ pubKey: 'pk_test_abc', createServerIntent: async () => session });

/** Awaits `promise`, expecting it to reject with an SdkError; returns the error. */
async function rejection(promise: Promise<unknown>): Promise<SdkError> {
  try {
    await promise;
  } catch (error) {
    expect(error).to.be.instanceOf(SdkError);
    expect(error).to.be.instanceOf(Error);
    return error as SdkError;
  }
  throw new Error('expected an SdkError, but the promise resolved');
}

describe('createElements', () => {
  describe('invalid options throw an SdkError naming the option', () => {
    it('pubKey missing', async () => {
      const { pubKey: _omitted, ...options } = valid();
      const error = await rejection(createElements(options as never));
      expect(error.name).to.equal('SdkError');
      expect(error.code).to.equal('invalid_options');
      expect(error.option).to.equal('pubKey');
      expect(error.message).to.contain('"pubKey"').and.contain('pk_');
    });

    it('pubKey without the pk_ prefix', async () => {
      const error = await rejection(createElements({ ...valid(), pubKey: 'abc' }));
      expect(error.option).to.equal('pubKey');
      expect(error.message).to.equal('createElements: option "pubKey" must be your public key, a string starting "pk_".');
    });

    it('a licence key as pubKey: says so, and does not echo the secret', async () => {
      const secret = 'sk_test_do_not_leak_me';
      const error = await rejection(createElements({ ...valid(), pubKey: secret }));
      expect(error.option).to.equal('pubKey');
      expect(error.message).to.contain('licence key');
      expect(error.message).not.to.contain(secret);
    });

    it('createServerIntent not a function', async () => {
      const error = await rejection(createElements({ ...valid(), createServerIntent: 'https://shop.example/intent' } as never));
      expect(error.option).to.equal('createServerIntent');
      expect(error.message).to.contain('"createServerIntent"').and.contain('function');
    });

    it('middleware route that is absolute or on another origin', async () => {
      for (const url of ['https://evil.example/attach', '//evil.example/attach', 'javascript:alert(1)']) {
        const error = await rejection(createElements({ ...valid(), middleware: { attach: url } }));
        expect(error.option, url).to.equal('middleware.attach');
        expect(error.message).to.contain('"middleware.attach"').and.contain('relative URL');
      }
    });

    it('middleware with a misspelt key suggests the spelling', async () => {
      const error = await rejection(createElements({ ...valid(), middleware: { authorize: '/api/authorise' } } as never));
      expect(error.option).to.equal('middleware');
      expect(error.message).to.contain('"authorize"').and.contain('did you mean "authorise"');
    });

    it('options that are not an object', async () => {
      const error = await rejection(createElements(undefined as never));
      expect(error.message).to.match(/^createElements: options must be an object/);
    });

    it('several faults are all named', async () => {
      const error = await rejection(createElements({ pubKey: 1, createServerIntent: null } as never));
      expect(error.message).to.contain('"pubKey"').and.contain('"createServerIntent"');
    });
  });

  describe('valid options', () => {
    it('give a controller that knows the service origin, without calling the backend', async () => {
      let calls = 0;
      const elements = await createElements({
        pubKey: 'pk_test_abc',
        createServerIntent: async () => (calls++, session),
        middleware: { attach: '/api/cpe/attach', authorise: 'api/cpe/authorise' },
      });
      expect(elements).to.be.instanceOf(ElementsController);
      expect(elements.pubKey).to.equal('pk_test_abc');
      expect(elements.middleware).to.deep.equal({ attach: '/api/cpe/attach', authorise: 'api/cpe/authorise' });
      // The SDK module was served by this origin in the test, so that is the "service".
      expect(elements.serviceOrigin).to.equal(location.origin);
      expect(calls).to.equal(0);
    });

    it('getPaymentIntentId calls createServerIntent once, lazily, and returns the id', async () => {
      let calls = 0;
      const elements = await createElements({ ...valid(), createServerIntent: async () => (calls++, session) });
      const ids = await Promise.all([elements.getPaymentIntentId(), elements.getPaymentIntentId()]);
      expect(ids).to.deep.equal(['pi_test_123', 'pi_test_123']);
      expect(await elements.getPaymentIntentId()).to.equal('pi_test_123');
      expect(calls).to.equal(1);
      expect(await elements.session()).to.deep.equal(session);
    });

    it('a session of the wrong shape rejects with an SdkError naming the field, and is not cached', async () => {
      let calls = 0;
      const answers: unknown[] = [{ paymentIntentId: 'pi_1', session_token: 'st', opaqueKey: 'ok' }, session];
      const elements = await createElements({ ...valid(), createServerIntent: async () => answers[calls++] as PaymentIntentSession });
      const error = await rejection(elements.getPaymentIntentId());
      expect(error.code).to.equal('invalid_session');
      expect(error.message).to.contain('"sessionToken"');
      expect(await elements.getPaymentIntentId()).to.equal('pi_test_123');
      expect(calls).to.equal(2);
    });

    it('a failing createServerIntent rejects with an SdkError carrying the cause, and is retried', async () => {
      let calls = 0;
      const cause = new Error('backend down');
      const elements = await createElements({
        ...valid(),
        createServerIntent: async () => {
          if (calls++ === 0) throw cause;
          return session;
        },
      });
      const error = await rejection(elements.getPaymentIntentId());
      expect(error.code).to.equal('create_server_intent_failed');
      expect(error.cause).to.equal(cause);
      expect(await elements.getPaymentIntentId()).to.equal('pi_test_123');
    });
  });
});

describe('events', () => {
  it('lists the exact cpe:* names of the spec', () => {
    expect(CPE_EVENTS).to.include.members(['cpe:ready', 'cpe:change', 'cpe:error', 'cpe:attach:start', 'cpe:authorise:end']);
    expect(CPE_EVENTS).to.have.length(17);
    expect(CPE_EVENTS).to.include.members(['cpe:availability', 'cpe:wallet:approved', 'cpe:wallet:cancel', 'cpe:payment:end']);
  });

  it('dispatchCpeEvent sends a bubbling, composed CustomEvent with the exact name, out of a shadow root', async () => {
    const host = document.createElement('div');
    document.body.append(host);
    const inner = host.attachShadow({ mode: 'open' }).appendChild(document.createElement('span'));
    try {
      const heard = oneEvent(document, 'cpe:error');
      dispatchCpeEvent(inner, 'cpe:error', { message: 'Card declined', operation: 'confirm' });
      const event = await heard;
      expect(event).to.be.instanceOf(CustomEvent);
      expect(event.type).to.equal('cpe:error');
      expect(event.bubbles).to.equal(true);
      expect(event.composed).to.equal(true);
      expect(event.detail.message).to.equal('Card declined');
      expect(event.target).to.equal(host); // retargeted at the shadow boundary
    } finally {
      host.remove();
    }
  });
});

describe('defineElement', () => {
  it('defines a tag once and ignores a second definition', () => {
    class First extends HTMLElement {}
    class Second extends HTMLElement {}
    defineElement('cpe-test-define', First);
    defineElement('cpe-test-define', Second);
    expect(customElements.get('cpe-test-define')).to.equal(First);
  });
});
