import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Locator, Page } from 'playwright-core';

/**
 * The README's pictures: with CPE_SCREENSHOTS=1 the end-to-end files that take them write them into
 * docs/screenshots/; without it, `shot` does nothing.
 */
export const SHOTS = process.env.CPE_SCREENSHOTS === '1' ? join(dirname(fileURLToPath(import.meta.url)), '../../../docs/screenshots') : undefined;
if (SHOTS) mkdirSync(SHOTS, { recursive: true });

/** Run-to-run values (order references, ids, times, authorisation codes) replaced by fixed ones. */
export async function steady(page: Page): Promise<void> {
  await page.evaluate(() => {
    const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      node.textContent = node
        .textContent!.replace(/ORD-\d+-[0-9A-F]{6}/g, 'ORD-1001-7C2A9F')
        .replace(/\b(pi|att|tds|tok|pm|ch|evt|re|we|rq|req)_[A-Za-z0-9]+/g, '$1_0123456789abcdef')
        .replace(/\b\d{1,2} [A-Z][a-z]{2} \d{4}, \d{2}:\d{2}:\d{2}/g, '1 Jan 2026, 09:00:00')
        .replace(/\b\d{1,2} [A-Z][a-z]{2} \d{4}, \d{2}:\d{2}/g, '1 Jan 2026, 09:00')
        .replace(/("(?:created|updated|authorised_at|captured_at|expires_at|[a-z_]*_at)": )\d+/g, '$11767225600')
        .replace(/("authorisation_code": )"[^"]+"/g, '$1"A1B2C3"')
        .replace(/("three_ds_transaction_id": )"[^"]+"/g, '$1"3ds_0123456789abcdef"');
    }
  });
}

/**
 * How many pixels differ between two PNGs (decoded by the browser) by more than a shade (24 of 255 in
 * a channel: a transition's last frame, antialiasing), or -1 when their sizes differ. A
 * string, not a function: functions inside an evaluated function would need tsx's `__name` helper.
 */
export async function pixelsChanged(page: Page, before: Buffer, after: Buffer): Promise<number> {
  const blank = await page.context().newPage();
  try {
    return (await blank.evaluate(`(async () => {
      const load = async (png) => {
        const image = new Image();
        image.src = 'data:image/png;base64,' + png;
        await image.decode();
        const context = new OffscreenCanvas(image.width, image.height).getContext('2d');
        context.drawImage(image, 0, 0);
        return context.getImageData(0, 0, image.width, image.height);
      };
      const [a, b] = [await load(${JSON.stringify(before.toString('base64'))}), await load(${JSON.stringify(after.toString('base64'))})];
      if (a.width !== b.width || a.height !== b.height) return -1;
      let changed = 0;
      for (let i = 0; i < a.data.length; i += 4)
        if (Math.max(Math.abs(a.data[i] - b.data[i]), Math.abs(a.data[i + 1] - b.data[i + 1]), Math.abs(a.data[i + 2] - b.data[i + 2])) > 24) changed++;
      return changed;
    })()`)) as number;
  } finally {
    await blank.close();
  }
}

/**
 * Takes a picture into docs/screenshots; an existing one is kept when fewer than 100 pixels changed
 * more than a shade (antialiasing and transitions vary from run to run), so git sees only real changes.
 */
export async function shot(page: Page, name: string, target?: Locator): Promise<void> {
  if (!SHOTS) return;
  await steady(page);
  const options = { animations: 'disabled' as const, caret: 'hide' as const };
  const png = target ? await target.screenshot(options) : await page.screenshot({ ...options, fullPage: true });
  const path = join(SHOTS, `${name}.png`);
  if (existsSync(path)) {
    const changed = await pixelsChanged(page, readFileSync(path), png);
    if (changed >= 0 && changed < 100) return;
  }
  writeFileSync(path, png);
}

