/* A classic script the build puts first in every bridge frame page (scripts/vite-inline-frame.ts): it
   keeps each message that carries a port (the parent's init) in window.__cpeEarly until the app's
   code has loaded, so an init that comes while the code still compiles is not lost;
   iframe-app/shared/host.ts takes them through the same checks as later ones. It validates nothing
   itself. The hello goes later, once the form can be typed in (first-paint.ts or host.ts), with its
   height. Comments and line breaks are stripped when it is inlined. */
(function () {
  window.__cpeEarly = [];
  if (window.parent === window) return;
  addEventListener('message', function (event) {
    if (event.source === window.parent && event.ports.length && window.__cpeEarly) window.__cpeEarly.push(event);
  });
})();
