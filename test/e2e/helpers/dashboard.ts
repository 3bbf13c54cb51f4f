import type { BrowserContextOptions, Page } from 'playwright-core';
import { dashboardLink } from '../../../server/admin/admin-routes.ts';
import { scaled } from '../../../testkit/time.ts';
import type { Stack, TestPage } from '../../../testkit/stack.ts';

/** The dashboard's pages by address (every one the app has, but a single object's). */
export const DASHBOARD_PAGES = ['/dashboard', '/dashboard/payments', '/dashboard/events', '/dashboard/webhooks', '/dashboard/developers'] as const;

/** Waits until the dashboard shows `page` with its first data (the app sets html[data-ready]). */
export async function dashboardReady(page: Page, name?: string): Promise<void> {
  await page.waitForSelector(name ? `html[data-ready="${name}"]` : 'html[data-ready]:not([data-ready="sign-in"])', { state: 'attached', timeout: scaled(20_000) });
}

/**
 * A browser signed in to the dashboard as `merchantId` (default: the seeded merchant) by a one-time
 * link, as `npm run -s dashboard` prints it; on the page of `path`.
 */
export async function openDashboard(stack: Stack, options: BrowserContextOptions & { merchantId?: number; path?: string } = {}): Promise<TestPage> {
  const { merchantId = stack.service.credentials.merchantId, path, ...context } = options;
  const opened = await stack.newPage({ viewport: { width: 1200, height: 900 }, ...context });
  const link = await dashboardLink(stack.service.services, merchantId);
  await opened.page.goto(link.url);
  await dashboardReady(opened.page);
  if (path) await goTo(opened.page, path);
  return opened;
}

/** Opens a page of the dashboard by its address (a full load, as a bookmark would). */
export async function goTo(page: Page, path: string): Promise<void> {
  await page.goto(new URL(path, page.url()).href);
  await dashboardReady(page, pageName(path));
}

/** The page name the app gives an address (html[data-ready]). */
export function pageName(path: string): string {
  const parts = new URL(path, 'http://x').pathname.split('/').filter(Boolean).slice(1);
  if (!parts.length) return 'home';
  const singular: Record<string, string> = { payments: 'payment', events: 'event', webhooks: 'webhook' };
  return parts.length > 1 ? singular[parts[0]!]! : parts[0]!;
}
