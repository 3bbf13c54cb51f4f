import { BRIDGE_VERSION, EVENTS, FrameEvent, METHODS, Request, Response, type BridgeError, type FrameEventDetail, type FrameEventName, type Method, type ParamsOf, type ResultOf } from './bridge.ts';

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

/** Default answer times per method: tokenise waits on the network, the rest are local. */
export const DEFAULT_TIMEOUT_MS: Record<Method, number> = { configure: 10_000, tokenise: 30_000, reset: 10_000, focus: 10_000, flowState: 10_000 };

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

  request<M extends Method>(method: M, params: ParamsOf<M>, timeoutMs = DEFAULT_TIMEOUT_MS[method]): Promise<ResultOf<M>> {
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
    const event = FrameEvent.safeParse(data);
    if (event.success) {
      const schema = EVENTS[event.data.name as FrameEventName];
      const detail = schema?.safeParse(event.data.detail);
      if (detail?.success) this.onEvent(event.data.name as FrameEventName, detail.data as never);
      return;
    }
    const response = Response.safeParse(data);
    if (!response.success) return;
    const pending = this.#pending.get(response.data.id);
    if (!pending) return;
    this.#pending.delete(response.data.id);
    clearTimeout(pending.timer);
    if (!response.data.ok) {
      const { code, message, field } = response.data.error;
      pending.reject(new BridgeRequestError(code, message, field));
      return;
    }
    const result = METHODS[pending.method].result.safeParse(response.data.result);
    if (result.success) pending.resolve(result.data);
    else pending.reject(new BridgeRequestError('bad_response', `The payment frame answered ${pending.method} with an unexpected shape.`));
  }
}

export type Handlers = { [M in Method]?: (params: ParamsOf<M>) => Promise<ResultOf<M>> | ResultOf<M> };

/**
 * The frame's end of the port: validates each request against its method's schema, runs the
 * handler, answers with the result or a BridgeError; `emit` sends validated events.
 */
export class FrameEnd {
  constructor(
    private readonly port: PortLike,
    private readonly handlers: Handlers,
  ) {
    port.onmessage = ({ data }) => void this.#receive(data);
  }

  emit<E extends FrameEventName>(name: E, detail: FrameEventDetail<E>): void {
    this.port.postMessage({ cpe: BRIDGE_VERSION, kind: 'event', name, detail } satisfies FrameEvent);
  }

  close(): void {
    this.port.onmessage = null;
    this.port.close();
  }

  async #receive(data: unknown): Promise<void> {
    const request = Request.safeParse(data);
    if (!request.success) return;
    const { id, method } = request.data;
    const answer = (body: { ok: true; result: unknown } | { ok: false; error: BridgeError }) =>
      this.port.postMessage({ cpe: BRIDGE_VERSION, kind: 'response', id, ...body });
    const spec = METHODS[method as Method];
    const handler = this.handlers[method as Method] as ((params: unknown) => unknown) | undefined;
    if (!spec || !handler) return answer({ ok: false, error: { code: 'unknown_method', message: `This frame does not handle ${method}.` } });
    const params = spec.params.safeParse(request.data.params);
    if (!params.success) return answer({ ok: false, error: { code: 'bad_request', message: `Invalid parameters for ${method}.` } });
    try {
      answer({ ok: true, result: await handler(params.data) });
    } catch (error) {
      const { code = 'frame_error', message = 'The payment frame failed.', field } = (error ?? {}) as Partial<BridgeError>;
      answer({ ok: false, error: { code, message, ...(field ? { field } : {}) } });
    }
  }
}
