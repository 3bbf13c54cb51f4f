import { startStack } from './testkit/stack.ts';
import { fillBasket, openShop, checkout, cardFrame, typeShopCard, orderShown } from './test/e2e/helpers/shop.ts';
import { CARDS } from './test/e2e/helpers/checkout.ts';
const stack = await startStack();
const out = process.argv[2] ?? '/tmp/i24-shots';
const { mkdirSync } = await import('node:fs'); mkdirSync(out, { recursive: true });
for (const lang of ['en', 'ar']) {
  const { page, context } = await openShop(stack, { viewport: { width: 320, height: 700 }, lang });
  await fillBasket(page);
  const sw = async (name: string) => { const w = await page.evaluate(() => document.documentElement.scrollWidth); console.log(lang, name, w); await page.screenshot({ path: `${out}/${lang}-${name}.png`, fullPage: true }); };
  await page.goto(`${stack.demoUrl}/basket`); await sw('basket');
  await checkout(page, stack, 'card'); await page.waitForTimeout(800); await sw('checkout-card');
  await checkout(page, stack, 'verify'); await page.waitForTimeout(800);
  await page.screenshot({ path: `${out}/${lang}-verify-before.png`, fullPage: true });
  await typeShopCard(page, CARDS.visa);
  await cardFrame(page).getByRole('button', { name: /Verify|تحقق/ }).click();
  await page.waitForURL(/orders/, { timeout: 30000 }); await sw('order-verify');
  await page.goto(`${stack.demoUrl}/inbox`);
  await page.getByLabel(/Username|اسم المستخدم/).fill('grace'); await page.getByLabel(/Phone|رقم/).fill('+44 20 7946 0958'); await page.getByLabel(/Phone|رقم/).press('Enter');
  await page.waitForURL(/inbox\/cnv/);
  await page.locator('#message-text').fill('Supercalifragilisticexpialidociousandevenlongerwordsthatneverbreak\nsecond line\nthird');
  await page.locator('.compose button[type=submit]').click(); await page.waitForTimeout(500);
  await sw('inbox');
  await context.close();
}
await stack.close();
