import { startStack } from './test/e2e/helpers/stack.ts';
import { startLook } from './test/e2e/helpers/look.ts';
const stack = await startStack({ build: false });
const look = await startLook(stack);
try {
  const { page, context } = await look.open({ factory: 'cardElement', options: {}, width: 520 });
  const out = await page.evaluate(async () => {
    const res = [];
    for (let i = 0; i < 8; i++) {
      const old = (window as any).__el as any;
      const box = document.querySelector('#box')!;
      const el = old.controller.cardElement({ element: '#box' });
      old.remove();
      const t0 = performance.now();
      let shown = 0;
      const p = el.init();
      const mo = new MutationObserver(() => { if (!shown && el.shadowRoot.querySelector('iframe')?.className === 'ready') shown = performance.now() - t0; });
      await p;
      mo.observe(el.shadowRoot, { subtree: true, attributes: true });
      await el.awaitReady();
      const t1 = performance.now() - t0;
      const nav = performance.getEntriesByType('resource').filter((e: any) => e.name.includes('/frames/card-form/')).at(-1) as any;
      res.push({ ready: t1.toFixed(1), shown: shown.toFixed(1), fetch: nav ? (nav.responseEnd - nav.startTime).toFixed(1) : null, start: nav ? (nav.startTime - (performance.now() - t1)).toFixed(1) : null });
      (window as any).__el = el;
    }
    return res;
  });
  console.log(out);
  await context.close();
} finally { await look.close(); await stack.close(); }
