import { expect, fixture, html } from '@open-wc/testing';
import { waitUntil } from './wait.ts';
import { executeServerCommand, sendKeys } from '@web/test-runner-commands';
import { ElementsController } from '../../components/controller.ts';
import { CPE_EVENTS } from '../../components/events.ts';
import { SdkError } from '../../components/errors.ts';
import type { MiddlewareRoutes } from '../../protocol/schemas/elements-options.ts';
import type { PaymentIntentSession } from '../../protocol/schemas/session.ts';
import { scaled } from '../../testkit/time.ts';
import type { FakeFrame, FakeFrameScript } from './fixtures/fake-frame.ts';

export const fakeSession: PaymentIntentSession = { paymentIntentId: 'pi_fake', sessionToken: 'st_fake', opaqueKey: 'ok_fake' };

/**
 * The handshake's limit in these tests: the product's 15 s is a promise to shoppers, not to a test
 * machine at load 25, where a suite's first frame once took longer to start. The limit itself is
 * tested with a timer the test holds (card.test.ts).
 */
export const patientHandshake = (onTimeout: () => void): (() => void) => {
  const timer = setTimeout(onTimeout, scaled(60_000));
  return () => clearTimeout(timer);
};

/** A controller whose "service" is the test server, which serves the fake frame (fixtures/fake-frame.ts). */
export const fakeController = (middleware: MiddlewareRoutes = {}, internals: ConstructorParameters<typeof ElementsController>[5] = {}) =>
  new ElementsController(location.origin, 'pk_test_fake', async () => fakeSession, middleware, undefined, { handshakeTimer: patientHandshake, ...internals });

/** What the next fake frames do. */
export function frameScript(script: FakeFrameScript = {}): void {
  (window as unknown as { __fakeFrame: FakeFrameScript }).__fakeFrame = script;
}

/** The fake frame's record, for an iframe of the element (or of one of its field boxes). */
export const fakeOf = (iframe: HTMLIFrameElement) => (iframe.contentWindow as unknown as { fake: FakeFrame }).fake;

export const iframesIn = (root: ParentNode): HTMLIFrameElement[] => [...root.querySelectorAll('iframe')];

/** A visible container, removed after the test by open-wc's fixture cleanup. */
export const container = () => fixture<HTMLDivElement>(html`<div style="width: 480px"></div>`);

/** Records the cpe:* events heard on `target` (name, detail), in order. */
export function recordEvents(target: EventTarget): { name: string; detail: any; event: CustomEvent }[] {
  const seen: { name: string; detail: any; event: CustomEvent }[] = [];
  for (const name of CPE_EVENTS) target.addEventListener(name, (event) => seen.push({ name, detail: (event as CustomEvent).detail, event: event as CustomEvent }));
  return seen;
}

type FetchCall = { url: string; headers: Record<string, string>; body: any };

/**
 * A fetch to inject into a controller (`new ElementsController(…, {fetch})`), never patched over the
 * page's: canned JSON answers per URL ending (`'hang'`: no answer until aborted); `calls` records
 * each request.
 */
export function fakeFetch(answers: Record<string, unknown | ((body: any) => unknown)>, status = 200): { calls: FetchCall[]; fetch: typeof fetch } {
  const calls: FetchCall[] = [];
  const fetch = async (input: RequestInfo | URL, init?: RequestInit) => {
    const url = String(input);
    // The SDK's key check before a mount (test/e2e/integrator-errors.test.ts tests it): a known key, this origin allowed; not a call of the test's.
    if (url.includes('/v1/public_keys/')) return new Response(JSON.stringify({ object: 'public_key', livemode: false, origin: location.origin, origin_allowed: true }));
    const body = init?.body ? JSON.parse(String(init.body)) : undefined;
    calls.push({ url, headers: Object.fromEntries(new Headers(init?.headers).entries()), body });
    const key = Object.keys(answers).find((k) => url.endsWith(k));
    if (!key) return new Response(JSON.stringify({ error: { code: 'no_route', message: `no answer for ${url}` } }), { status: 404 });
    const answer = answers[key];
    if (answer === 'hang')
      return new Promise<Response>((_, reject) => init!.signal!.addEventListener('abort', () => reject(init!.signal!.reason)));
    return new Response(JSON.stringify(typeof answer === 'function' ? (answer as (b: any) => unknown)(body) : answer), { status });
  };
  return { calls, fetch };
}

/** A fetch to inject that records each request's path, then sends it. */
export function recordingFetch(): { paths: string[]; fetch: typeof fetch } {
  const paths: string[] = [];
  return { paths, fetch: (input, init) => (paths.push(new URL(String(input), location.href).pathname), fetch(input, init)) };
}

/**
 * A merchant route of the test server (web-test-runner.config.mjs) answering `answer` as JSON to
 * every POST, at an address of its own; `calls()` counts the requests it had. For what the page
 * fetches itself (a `<cpe-elements intent-url>`), where nothing can be injected.
 */
export async function fakeRoute(answer: unknown): Promise<{ url: string; calls(): Promise<number> }> {
  const url = `/__cpe/fake/${crypto.randomUUID()}`;
  await fetch(`${url}/answer`, { method: 'PUT', body: JSON.stringify(answer) });
  return { url, calls: async () => (await (await fetch(`${url}/calls`)).json()).calls };
}

/**
 * Resolves once every message posted to this window before the call has been dispatched (messages
 * from one window arrive in order): to check that a forged message was ignored, without a sleep.
 * `target`: a same-origin frame's window, for what this page posted to it.
 */
export function messagesHandled(target: Window = window): Promise<void> {
  const marker = `cpe-test-marker-${crypto.randomUUID()}`;
  return new Promise((resolve) => {
    target.addEventListener('message', function heard(event) {
      if (event.data !== marker) return;
      target.removeEventListener('message', heard);
      resolve();
    });
    target.postMessage(marker, '*');
  });
}

/** Calls `fn`, expecting it to throw an SdkError; returns the error. */
export function thrown(fn: () => unknown): SdkError {
  try {
    fn();
  } catch (error) {
    expect(error).to.be.instanceOf(SdkError);
    return error as SdkError;
  }
  throw new Error('expected an SdkError');
}

/** Awaits `promise`, expecting it to reject with an SdkError; returns the error. */
export async function rejected(promise: Promise<unknown>): Promise<SdkError> {
  try {
    await promise;
  } catch (error) {
    expect(error).to.be.instanceOf(SdkError);
    return error as SdkError;
  }
  throw new Error('expected a rejection with an SdkError, but the promise resolved');
}

export type FrameState = 'present' | 'enabled' | 'focused' | 'blurred' | 'absent' | 'rendered';

/**
 * Waits until `selector` (searched through open shadow roots) in a frame whose address contains
 * `frameUrl` is present, enabled (and shown), focused (its document has the focus), blurred, absent, or
 * present and painted (`rendered`: what its layout caused has been sent). The frames are of another
 * origin: the test runner looks into them (frame-commands.mjs).
 */
export async function inFrame(frameUrl: string, selector: string, state: FrameState, timeoutMs = 30_000): Promise<void> {
  const deadline = performance.now() + scaled(timeoutMs);
  for (;;) {
    // Each command looks for up to 5 s: the runner refuses to wait more than 20 s for one.
    const sliceMs = Math.max(0, Math.min(5_000, deadline - performance.now()));
    const answer = (await executeServerCommand('cpe-in-frame', { frameUrl, selector, state, sliceMs })) as { ok: boolean; seen?: string };
    if (answer.ok) return;
    if (performance.now() >= deadline) throw new Error(`inFrame: ${selector} in ${frameUrl} was not ${state} within ${scaled(timeoutMs)} ms (last seen: ${answer.seen})`);
  }
}

/** How many `type` listeners this page's window has (counted by the browser, nothing wrapped). */
export const windowListeners = (type: string) => executeServerCommand('cpe-window-listeners', { type }) as Promise<number>;

/** Presses `key` down in the focused frame without waiting for its acknowledgement (frame-commands.mjs): for a key that removes the frame it goes to. */
export const keyDownUnacked = (key: string) => executeServerCommand('cpe-key-down-unacked', { key });

/**
 * Types a card like a shopper into the hosted fields of `host` (one frame or four), which
 * `host.focus()` focuses: each text is typed once its field has the focus, Tab between fields (focus
 * moves between frames of another process asynchronously: typing earlier would lose keys); resolves
 * once the page has heard the form complete.
 */
export async function typeCard(host: HTMLElement, number = '4242424242424242'): Promise<void> {
  const texts = { number, expiry: '1230', cvc: number.startsWith('37') ? '1234' : '123', name: 'Ada Lovelace' };
  let complete = false;
  const heard = (event: Event) => (complete = !!(event as CustomEvent).detail?.complete);
  host.addEventListener('cpe:change', heard);
  try {
    host.focus();
    for (const [i, [field, text]] of Object.entries(texts).entries()) {
      if (i) await sendKeys({ press: 'Tab' });
      const selector = `input[data-field="${field}"]`;
      if (i) await inFrame('/frames/', selector, 'focused');
      else
        // The runs that needed this could not see into the frame: puppeteer's view of it was missing
        // or its evaluation never answered (frame-commands.mjs now bounds each look and asks the
        // browser's frame targets too), not a focus that did not land. Asked once more all the same,
        // as a shopper would click again; the first wait's failure is logged with what each frame showed.
        await inFrame('/frames/', selector, 'focused', 9_000).catch(async (error: Error) => {
          const active = document.activeElement;
          console.warn(`typeCard: focus() did not reach the first field (${error.message}; the page's focus: ${active?.tagName.toLowerCase()}${active?.shadowRoot?.activeElement ? ` > ${active.shadowRoot.activeElement.tagName.toLowerCase()}` : ''}, document.hasFocus() ${document.hasFocus()}); focusing again`);
          host.focus();
          await inFrame('/frames/', selector, 'focused', 9_000);
        });
      await sendKeys({ type: text });
    }
    // The frames' last change has reached the page.
    await waitUntil(() => complete, 'the card typed never became complete');
  } finally {
    host.removeEventListener('cpe:change', heard);
  }
}

/** Types a card into a Flow like a shopper (Tab between fields) and presses Enter: the frame submits when valid. */
export async function payWithKeyboard(flow: HTMLElement, number = '4242424242424242'): Promise<void> {
  await typeCard(flow, number);
  await sendKeys({ press: 'Enter' });
}
