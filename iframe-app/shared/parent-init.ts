/**
 * A frame page accepts exactly one init per load: the first message from `window.parent` (from
 * `location.ancestorOrigins[0]` where the browser tells) that carries a port and that `check` accepts,
 * whether early-init.js queued it before the app's code ran or it arrives later. Every other message
 * is ignored, for the life of the page: a script on the merchant page cannot re-point a live frame at
 * another merchant, session or port. The SDK never needs a second init: a new frame is a new load.
 */
export function acceptOneInit<T>(check: (data: unknown, origin: string) => T | undefined, accept: (init: T, port: MessagePort, origin: string) => void): void {
  const early = window as unknown as { __cpeEarly?: MessageEvent[] };
  let done = false;
  const listen = (event: MessageEvent) => {
    if (done || event.source !== window.parent || !event.ports[0]) return;
    const ancestor = location.ancestorOrigins?.[0];
    if (ancestor && event.origin !== ancestor) return;
    const init = check(event.data, event.origin);
    if (init === undefined) return;
    done = true;
    removeEventListener('message', listen);
    early.__cpeEarly = undefined;
    accept(init, event.ports[0], event.origin);
  };
  for (const event of early.__cpeEarly?.splice(0) ?? []) listen(event);
  early.__cpeEarly = undefined;
  if (!done) addEventListener('message', listen);
}
