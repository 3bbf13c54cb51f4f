/**
 * One request/response mechanism for every ElementsApi method, over the bridge's private port:
 * the element's end (rpc-element.ts, merchant page, generated guards, no zod) and the frame's end
 * (rpc-frame.ts, iframe-app/), both with the generated guards.
 */
export { BridgeRequestError, defaultTimeoutMs, ElementEnd, type PortLike } from './rpc-element.ts';
export { FrameEnd, type Handlers } from './rpc-frame.ts';
