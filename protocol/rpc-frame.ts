import { BRIDGE_VERSION, METHODS, Request, type BridgeError, type FrameEvent, type FrameEventDetail, type FrameEventName, type Method, type ParamsOf, type ResultOf } from './bridge.ts';
import type { PortLike } from './rpc-element.ts';

/** The frame's end of the bridge's port (iframe-app/), validating with zod (protocol/bridge.ts). */
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
