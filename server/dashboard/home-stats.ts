import type { HomeBucket, HomeView } from '../../api/dashboard.ts';
import type { EventType } from '../../api/events.ts';
import type { Clock } from '../clock.ts';
import type { Events } from '../events/events.ts';
import { merchantOwner } from '../events/owner.ts';
import type { PaymentsService } from '../payments/payments-service.ts';

const HOUR = 3600;
const DAY = 24 * HOUR;
/** The most events of one type the Home page reads for its charts (a page at a time, newest first). */
export const MAX_EVENTS_READ = 5_000;
/** The most uncaptured payments it checks and counts (shown as "1,000+"). */
const MAX_UNCAPTURED = 1_000;

interface IntentObject {
  id: string;
  status: string;
  amount: number;
  currency: string;
  amount_captured?: number;
  amount_received?: number;
  amount_authorised?: number | null;
  attempts?: { error?: { code?: string; message?: string } | null }[];
}

/** What leaves a failed payment in words: its last attempt's error. */
const declineReason = (intent: IntentObject) => {
  const error = [...(intent.attempts ?? [])].reverse().find((attempt) => attempt.error)?.error;
  return error?.message ?? error?.code ?? 'Unknown';
};

/**
 * The Home page's figures, read from the merchant's events (as every history in CPE is: the timeline,
 * the webhooks): `payment_intent.succeeded` and `.amount_capturable_updated` are money in (Stripe's
 * gross volume counts captured and authorised payments), `.payment_failed` a failure and its reason.
 * Buckets of the viewer's days (from `tzOffset`, minutes as Date.getTimezoneOffset) and of the last
 * 24 hours. Each type's events of the week are read a page at a time, at most MAX_EVENTS_READ.
 */
export async function homeStats(
  { events, payments, clock }: { events: Events; payments: PaymentsService; clock: Clock },
  merchantId: number,
  tzOffset: number,
  failedWebhooks: () => Promise<number | null>,
): Promise<HomeView> {
  const owner = merchantOwner(merchantId);
  const now = clock.now();
  // The start of the viewer's day, 6 days ago: 7 days of buckets.
  const local = now - tzOffset * 60;
  const today = local - (local % DAY) + tzOffset * 60;
  const weekStart = today - 6 * DAY;
  const hourStart = now - (now % HOUR) - 23 * HOUR;
  let capped = false;

  async function read(type: EventType, gte: number, lte = now): Promise<{ created: number; object: IntentObject }[]> {
    const found: { created: number; object: IntentObject }[] = [];
    for (let after: string | undefined; found.length < MAX_EVENTS_READ; ) {
      const page = await events.list(owner, { limit: 100, type, created: { gte, lte }, ...(after ? { starting_after: after } : {}) });
      for (const event of page.data) found.push({ created: event.created, object: event.data.object as unknown as IntentObject });
      if (!page.has_more) return found;
      after = page.data.at(-1)!.id;
    }
    capped = true;
    return found;
  }

  const [succeeded, authorised, failed] = await Promise.all([
    read('payment_intent.succeeded', weekStart),
    read('payment_intent.amount_capturable_updated', weekStart),
    read('payment_intent.payment_failed', weekStart),
  ]);
  const money = [...succeeded, ...authorised];
  const currencies = new Map<string, number>();
  for (const { object } of money) currencies.set(object.currency, (currencies.get(object.currency) ?? 0) + 1);
  const currency = [...currencies].sort((a, b) => b[1] - a[1])[0]?.[0] ?? 'GBP';

  const buckets = (start: number, size: number, count: number): HomeBucket[] =>
    Array.from({ length: count }, (_, i) => ({ start: start + i * size, volume: 0, payments: 0, succeeded: 0, failed: 0 }));
  const days = buckets(weekStart, DAY, 7);
  const hours = buckets(hourStart, HOUR, 24);
  const into = (list: HomeBucket[], start: number, size: number, at: number) => (at >= start ? list[Math.floor((at - start) / size)] : undefined);
  for (const { created, object } of money) {
    for (const bucket of [into(days, weekStart, DAY, created), into(hours, hourStart, HOUR, created)]) {
      if (!bucket) continue;
      bucket.payments++;
      bucket.succeeded++;
      if (object.currency === currency) bucket.volume += object.amount_received ?? object.amount_captured ?? object.amount_authorised ?? object.amount;
    }
  }
  const reasons = new Map<string, number>();
  for (const { created, object } of failed) {
    reasons.set(declineReason(object), (reasons.get(declineReason(object)) ?? 0) + 1);
    for (const bucket of [into(days, weekStart, DAY, created), into(hours, hourStart, HOUR, created)]) {
      if (!bucket) continue;
      bucket.payments++;
      bucket.failed++;
    }
  }

  // Authorised more than a day ago and still waiting for capture (its authorisation may lapse).
  let uncaptured = 0;
  for (const { object } of await read('payment_intent.amount_capturable_updated', now - 7 * DAY, now - DAY)) {
    if (uncaptured >= MAX_UNCAPTURED) break;
    if ((await payments.get(merchantId, object.id)).status === 'requires_capture') uncaptured++;
  }

  return {
    currency,
    days,
    hours,
    decline_reasons: [...reasons].map(([reason, count]) => ({ reason, count })).sort((a, b) => b.count - a.count),
    attention: { failed_webhooks: await failedWebhooks(), uncaptured_over_a_day: uncaptured },
    payments_read: money.length + failed.length,
    capped,
    other_currencies: money.filter(({ object }) => object.currency !== currency).length,
  };
}
