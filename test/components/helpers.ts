import { expect, fixture, html } from '@open-wc/testing';
import { sendKeys } from '@web/test-runner-commands';
import { ElementsController } from '../../components/controller.ts';
import { CPE_EVENTS } from '../../components/events.ts';
import { SdkError } from '../../components/errors.ts';
import type { MiddlewareRoutes } from '../../protocol/schemas/elements-options.ts';
import type { PaymentIntentSession } from '../../protocol/schemas/session.ts';
import type { FakeFrame, FakeFrameScript } from './fixtures/fake-frame.ts';

export const fakeSession: PaymentIntentSession = { paymentIntentId: 'pi_fake', sessionToken: 'st_fake', opaqueKey: 'ok_fake' };

/** A controller whose "service" is the test server, which serves the fake frame (fixtures/fake-frame.ts). */
export const fakeController = (middleware: MiddlewareRoutes = {}) => new ElementsController(location.origin, 'pk_test_fake', async () => fakeSession, middleware);

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

/** Replaces fetch with canned JSON answers per URL ending; returns the calls. Restore with the returned function. */
export function stubFetch(answers: Record<string, unknown | ((body: any) => unknown)>, status = 200): { calls: FetchCall[]; restore(): void } {
  const original = window.fetch;
  const calls: FetchCall[] = [];
  window.fetch = async (input: RequestInfo | URL, init?: RequestInit) => {
    const url = String(input);
    // The SDK's key check before a mount (test/e2e/integrator-errors.test.ts tests it): a known key, this origin allowed; not a call of the test's.
    if (url.includes('/v1/public_keys/')) return new Response(JSON.stringify({ object: 'public_key', livemode: false, origin: location.origin, origin_allowed: true }));
    const body = init?.body ? JSON.parse(String(init.body)) : undefined;
    calls.push({ url, headers: Object.fromEntries(new Headers(init?.headers).entries()), body });
    const key = Object.keys(answers).find((k) => url.endsWith(k));
    if (!key) return new Response(JSON.stringify({ error: { code: 'no_route', message: `no stub for ${url}` } }), { status: 404 });
    const answer = answers[key];
    if (answer === 'hang')
      return new Promise<Response>((_, reject) => init!.signal!.addEventListener('abort', () => reject(init!.signal!.reason)));
    return new Response(JSON.stringify(typeof answer === 'function' ? (answer as (b: any) => unknown)(body) : answer), { status });
  };
  return { calls, restore: () => (window.fetch = original) };
}

export const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

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

/** Types a card into a Flow like a shopper (Tab between fields) and presses Enter: the frame submits when valid. */
export async function payWithKeyboard(flow: HTMLElement, number = '4242424242424242'): Promise<void> {
  flow.focus();
  await pause(250);
  for (const [i, text] of [number, '1230', '123', 'Ada Lovelace'].entries()) {
    if (i) await sendKeys({ press: 'Tab' }), await pause(100);
    await sendKeys({ type: text });
  }
  await pause(50);
  await sendKeys({ press: 'Enter' });
}
