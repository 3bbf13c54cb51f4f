import type { FrameEventDetail, FrameEventName, Method, ParamsOf, Request, ResultOf } from '../schemas/bridge.ts';
import { EVENTS, FrameEvent, RESULTS, Response } from './guards.ts';
import { conforms, hasGuard, type Guard } from './json-guard.ts';
import { BRIDGE_VERSION } from './version.ts';

/**
 * The element's (merchant page's) end of the bridge's port: no zod here. Messages are validated
 * with the guards generated from protocol/schemas/bridge.ts's schemas (protocol/runtime/guards.ts), as
 * the frame's end (rpc-frame.ts) does. protocol/runtime/rpc.ts re-exports both.
 */

/** The part of MessagePort the bridge uses (structural, so this file needs no DOM types). */
export interface PortLike {
  postMessage(message: unknown): void;
  // `any`: a DOM MessagePort (whose handler takes a MessageEvent) must fit; every message is parsed anyway.
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  onmessage: ((event: any) => void) | null;
  close(): void;
}

/** A request that failed: the frame's error, a timeout, or a closed bridge. */
export class BridgeRequestError extends Error {
  override name = 'BridgeRequestError';
  constructor(readonly code: string, message: string, readonly field?: string) {
    super(message);
  }
}

/** Default answer time of a method: tokenise waits on the network (30 s), the rest are local (10 s). */
export const defaultTimeoutMs = (method: Method): number => (method === 'tokenise' ? 30_000 : 10_000);

type Pending = { resolve(value: unknown): void; reject(error: Error): void; timer: ReturnType<typeof setTimeout>; method: Method };

/**
 * The element's end of the port: `request(method, params)` resolves with the frame's validated
 * result, rejects with BridgeRequestError (`timeout` when no answer comes in time); frame events go
 * to `onEvent` after validation. Anything that does not parse is dropped.
 */
export class ElementEnd {
  #next = 1;
  readonly #pending = new Map<number, Pending>();

  constructor(
    private readonly port: PortLike,
    private readonly onEvent: <E extends FrameEventName>(name: E, detail: FrameEventDetail<E>) => void,
  ) {
    port.onmessage = ({ data }) => this.#receive(data);
  }

  request<M extends Method>(method: M, params: ParamsOf<M>, timeoutMs = defaultTimeoutMs(method)): Promise<ResultOf<M>> {
    const id = this.#next++;
    return new Promise<ResultOf<M>>((resolve, reject) => {
      const timer = setTimeout(() => {
        this.#pending.delete(id);
        reject(new BridgeRequestError('timeout', `The payment frame did not answer ${method} within ${Math.round(timeoutMs / 1000)} s.`));
      }, timeoutMs);
      this.#pending.set(id, { resolve: resolve as (value: unknown) => void, reject, timer, method });
      this.port.postMessage({ cpe: BRIDGE_VERSION, kind: 'request', id, method, params } satisfies Request);
    });
  }

  /** Rejects every pending request and closes the port (element removed, frame reloaded). */
  close(reason = 'The payment frame was removed.'): void {
    for (const [id, pending] of this.#pending) {
      clearTimeout(pending.timer);
      pending.reject(new BridgeRequestError('closed', reason));
      this.#pending.delete(id);
    }
    this.port.onmessage = null;
    this.port.close();
  }

  #receive(data: unknown): void {
    if (conforms(FrameEvent, data)) {
      const { name, detail } = data;
      // Each event's detail has its own guard: the one of this name.
      if (hasGuard(EVENTS, name) && conforms(EVENTS[name] as Guard<unknown>, detail)) this.onEvent(name, detail as never);
      return;
    }
    if (!conforms(Response, data)) return;
    const pending = this.#pending.get(data.id);
    if (!pending) return;
    this.#pending.delete(data.id);
    clearTimeout(pending.timer);
    if (!data.ok) {
      const { code, message, field } = data.error;
      pending.reject(new BridgeRequestError(code, message, field));
      return;
    }
    if (conforms(RESULTS[pending.method] as Guard<unknown>, data.result)) pending.resolve(data.result);
    else pending.reject(new BridgeRequestError('bad_response', `The payment frame answered ${pending.method} with an unexpected shape.`));
  }
}
