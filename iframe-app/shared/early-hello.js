/* A classic script the build puts first in every frame page (scripts/vite-inline-frame.ts): it says
   hello to the parent before the app's code has compiled, and keeps each message that carries a port
   (the parent's init) in window.__cpeEarly for iframe-app/shared/host.ts, which checks them as it
   checks later ones. It validates nothing itself and reads no secret: the hello carries only the
   session uuid of the address, as host.ts's own hello does. Comments and line breaks are stripped
   when it is inlined; BRIDGE_VERSION becomes protocol/runtime/version.ts's number. */
(function () {
  window.__cpeEarly = [];
  var session = location.hash.slice(1);
  if (window.parent === window || !/^[0-9a-f-]{36}$/.test(session)) return;
  addEventListener('message', function (event) {
    if (event.source === window.parent && event.ports.length && window.__cpeEarly) window.__cpeEarly.push(event);
  });
  window.parent.postMessage({ cpe: BRIDGE_VERSION, type: 'hello', session: session }, '*');
  window.__cpeHello = true;
})();
