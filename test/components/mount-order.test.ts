import { expect } from '@open-wc/testing';
import { ElementsController } from '../../components/controller.ts';
import { container, fakeFetch, fakeSession, patientHandshake } from './helpers.ts';
import { waitUntil } from './wait.ts';

/** The SDK's hidden page of the service (components/internal/frame.ts, keepProcess). */
const keepPages = () => [...document.querySelectorAll('iframe')].filter((f) => f.src.includes('/frames/keep/'));

/**
 * What a first mount does first: the frame's page loads while the merchant's createServerIntent runs,
 * and the work that is not the form's waits until the element is ready. The hidden page is added once
 * per origin and page, so the test that watches it comes first in this file (its own page).
 */
describe('a first mount: the frame first, the rest after ready', () => {
  it("the hidden page that keeps the service's process comes after ready, not in the hello's task", async () => {
    const controller = new ElementsController(location.origin, 'pk_test_fake', async () => fakeSession, {}, undefined, { handshakeTimer: patientHandshake, fetch: fakeFetch({}).fetch });
    // The session and the key check settled before the mount: ready comes in the hello's own task, whatever the machine's load.
    await controller.getPaymentIntentId();
    await controller.keyCheck();
    const card = controller.cardElement({ element: await container() });
    await card.init();
    await card.awaitReady();
    expect(keepPages(), 'hidden pages when ready resolves').to.have.length(0);
    await waitUntil(() => keepPages().length === 1, 'the hidden page never came');
    expect(keepPages()[0]!.hidden).to.equal(true);
  });

  it("the frame's page is already loading when createServerIntent is called", async () => {
    let card: HTMLElement | undefined;
    let frameAtCall: string | null | undefined;
    const controller = new ElementsController(
      location.origin,
      'pk_test_fake',
      async () => {
        frameAtCall = card!.shadowRoot?.querySelector('iframe')?.getAttribute('src');
        return fakeSession;
      },
      {},
      undefined,
      { handshakeTimer: patientHandshake, fetch: fakeFetch({}).fetch },
    );
    const el = controller.cardElement({ element: await container() });
    card = el;
    await el.init();
    await el.awaitReady();
    expect(frameAtCall, "the iframe's address when createServerIntent was called").to.contain('/frames/card-form/');
  });
});
