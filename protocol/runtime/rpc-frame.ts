import type { BridgeError, FrameEvent, FrameEventDetail, FrameEventName, Method, ParamsOf, ResultOf } from '../schemas/bridge.ts';
import { PARAMS, Request } from './guards.ts';
import { conforms, hasGuard, type Guard } from './json-guard.ts';
import type { PortLike } from './rpc-element.ts';
import { BRIDGE_VERSION } from './version.ts';

/**
 * The frame's end of the bridge's port (iframe-app/). Like the element's end, it validates with the
 * guards generated from protocol/schemas/bridge.ts's schemas: the frames carry no zod either (less code to
 * load before the frame is ready).
 */
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
    if (!conforms(Request, data)) return;
    const { id, method, params } = data;
    const answer = (body: { ok: true; result: unknown } | { ok: false; error: BridgeError }) =>
      this.port.postMessage({ cpe: BRIDGE_VERSION, kind: 'response', id, ...body });
    const handler = hasGuard(PARAMS, method) && Object.hasOwn(this.handlers, method) ? (this.handlers[method] as (params: unknown) => unknown) : undefined;
    if (!handler) return answer({ ok: false, error: { code: 'unknown_method', message: `This frame does not handle ${method}.` } });
    if (!conforms(PARAMS[method as Method] as Guard<unknown>, params)) return answer({ ok: false, error: { code: 'bad_request', message: `Invalid parameters for ${method}.` } });
    try {
      answer({ ok: true, result: await handler(params) });
    } catch (error) {
      const { code = 'frame_error', message = 'The payment frame failed.', field } = (error ?? {}) as Partial<BridgeError>;
      answer({ ok: false, error: { code, message, ...(field ? { field } : {}) } });
    }
  }
}
