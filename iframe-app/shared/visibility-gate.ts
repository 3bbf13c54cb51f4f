/**
 * Arms a control only once it has been fully visible, without interruption, for `ms` (500 ms by
 * default): a blind click through a sheet the page made invisible (opacity 0, covered, scrolled out,
 * transformed) or a click the instant it appeared does nothing. Where the browser has
 * IntersectionObserver v2 (`trackVisibility`: Chromium), "visible" means what it computes across the
 * whole frame tree, the merchant page's styles included (`isVisible`); elsewhere the control must be
 * entirely within the viewport of a visible document. `onChange(armed)` runs on every change;
 * the returned function stops watching.
 */
export function visibilityGate(el: Element, onChange: (armed: boolean) => void, ms = 500): () => void {
  let timer: ReturnType<typeof setTimeout> | undefined;
  let armed = false;
  const set = (visible: boolean) => {
    clearTimeout(timer);
    if (!visible) {
      if (armed) onChange((armed = false));
      return;
    }
    if (!armed) timer = setTimeout(() => onChange((armed = true)), ms);
  };
  const observer = new IntersectionObserver(
    (entries) => {
      const entry = entries.at(-1)!;
      const v2 = (entry as IntersectionObserverEntry & { isVisible?: boolean }).isVisible;
      set(entry.intersectionRatio >= 0.999 && (v2 ?? document.visibilityState === 'visible'));
    },
    { threshold: [0, 0.999, 1], trackVisibility: true, delay: 100 } as IntersectionObserverInit,
  );
  observer.observe(el);
  const hidden = () => document.visibilityState !== 'visible' && set(false);
  document.addEventListener('visibilitychange', hidden);
  return () => {
    clearTimeout(timer);
    observer.disconnect();
    document.removeEventListener('visibilitychange', hidden);
  };
}
