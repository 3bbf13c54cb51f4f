import { startStack } from './test/e2e/helpers/stack.ts';
import { startLook, frameOf } from './test/e2e/helpers/look.ts';
const stack = await startStack({ build: false });
const look = await startLook(stack);
try {
  const { page, context } = await look.open({ factory: 'cardElement', options: {}, width: 520 });
  console.log(await page.evaluate(() => { const el = document.querySelector('cpe-card') as HTMLElement; return { h: el.getBoundingClientRect().height, w: el.clientWidth, min: el.style.minHeight, iframe: el.shadowRoot!.querySelector('iframe')!.style.height }; }));
  console.log(await frameOf(page, 'card-form').evaluate(() => { const el = document.querySelector('cpe-card-form')!; return [el.getAttribute('arr'), el.getBoundingClientRect().height, el.getAttribute('card-schemes-display'), location.search]; }));
  await context.close();
} finally { await look.close(); await stack.close(); }
