import { startStack } from './test/e2e/helpers/stack.ts';
import { startLook, frameOf } from './test/e2e/helpers/look.ts';
const stack = await startStack({ build: false });
const look = await startLook(stack);
try {
  for (const layout of ['row', 'row-compact', 'row-minimal', 'stack', 'column', 'column-compact']) for (const marks of ['detected', 'all']) {
    const { page, context } = await look.open({ factory: 'cardElement', options: { layout, cardSchemesDisplay: marks }, width: 900, context: { viewport: { width: 1000, height: 900 } } });
    const f = frameOf(page, 'card-form');
    let last = '';
    const out: string[] = [];
    for (let w = 900; w >= 200; w -= 4) {
      await page.evaluate((w) => (document.querySelector('#box') as HTMLElement).style.width = `${w}px`, w);
      await page.waitForTimeout(30);
      const r = await f.evaluate(() => { const el = document.querySelector('cpe-card-form')!; return `${el.getAttribute('arr')} ${Math.ceil(el.getBoundingClientRect().height)}`; });
      if (r !== last) { out.push(`${w}:${r}`); last = r; }
    }
    console.log(layout, marks, out.join('  '));
    await context.close();
  }
} finally { await look.close(); await stack.close(); }
