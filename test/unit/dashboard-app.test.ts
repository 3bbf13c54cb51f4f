import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { EVENT_TYPES, selects as serviceSelects } from '../../api/events.ts';
import { PAYMENT_EVENT_TYPES, selects } from '../../dashboard/app/event-types.ts';
import { formatCount, formatDay, formatHour, formatMoney, majorText, parseMoney } from '../../dashboard/app/format.ts';
import { routeOf } from '../../dashboard/app/router.ts';
import { timeline } from '../../dashboard/app/timeline.ts';
import type { EventView } from '../../dashboard/app/types.ts';

/** The dashboard's pure parts, in Node: its addresses, its amounts, a payment's timeline in words. */
describe('the dashboard app', () => {
  it('reads every page from its address; anything else is not found', () => {
    const at = (path: string) => {
      const url = new URL(path, 'http://x');
      const route = routeOf({ pathname: url.pathname, search: url.search });
      return route && { page: route.page, id: route.id, q: route.query.get('q') };
    };
    assert.deepEqual(at('/dashboard'), { page: 'home', id: undefined, q: null });
    assert.deepEqual(at('/dashboard/payments?q=order-1'), { page: 'payments', id: undefined, q: 'order-1' });
    assert.deepEqual(at('/dashboard/payments/pi_123'), { page: 'payment', id: 'pi_123', q: null });
    assert.deepEqual(at('/dashboard/webhooks/we_1'), { page: 'webhook', id: 'we_1', q: null });
    assert.deepEqual(at('/dashboard/events/evt_1'), { page: 'event', id: 'evt_1', q: null });
    assert.equal(at('/dashboard/payments/pi_1/more'), undefined);
    assert.equal(at('/dashboardx'), undefined);
  });

  it('knows the merchant\'s event types, and which an endpoint takes, as the service does (Send test event offers those)', () => {
    assert.deepEqual([...PAYMENT_EVENT_TYPES], Object.entries(EVENT_TYPES).filter(([, row]) => row.owner === 'merchant').map(([type]) => type));
    for (const selector of ['*', 'payment_intent.*', 'refund.*', 'refund.created', 'payment_intent.succeeded', 'payment.*'])
      for (const type of PAYMENT_EVENT_TYPES) assert.equal(selects(selector, type), serviceSelects(selector, type), `${selector} ${type}`);
  });

  it('writes and reads amounts in minor units, by the currency\'s decimals', () => {
    assert.equal(formatMoney(3250, 'GBP'), '£32.50');
    assert.equal(formatMoney(500, 'jpy'), 'JP¥500');
    assert.equal(parseMoney('5', 'GBP'), 500);
    assert.equal(parseMoney('5.5', 'GBP'), 550);
    assert.equal(parseMoney('1,234.56', 'GBP'), 123456);
    assert.equal(parseMoney('5.555', 'GBP'), undefined);
    assert.equal(parseMoney('-5', 'GBP'), undefined);
    assert.equal(parseMoney('500', 'JPY'), 500);
    assert.equal(parseMoney('5.5', 'JPY'), undefined);
    assert.equal(majorText(3250, 'GBP'), '32.50');
  });

  it('writes what Home shows first (amounts in pounds, euros and dollars, counts, days, hours) as Intl does in en-GB, without it', () => {
    for (const currency of ['GBP', 'eur', 'USD'])
      for (const minor of [0, 5, 99, 100, 3250, 123456, 100000000, 987654321, -5, -123456])
        assert.equal(formatMoney(minor, currency), new Intl.NumberFormat('en-GB', { style: 'currency', currency: currency.toUpperCase() }).format(minor / 100), `${minor} ${currency}`);
    for (const count of [0, 7, 999, 1000, 12345, 1234567, -4321]) assert.equal(formatCount(count), count.toLocaleString('en-GB'));
    const day = new Intl.DateTimeFormat('en-GB', { weekday: 'short', day: 'numeric' });
    const hour = new Intl.DateTimeFormat('en-GB', { hour: '2-digit', minute: '2-digit' });
    for (let seconds = Date.UTC(2026, 0, 1) / 1000; seconds < Date.UTC(2026, 0, 9) / 1000; seconds += 3600 * 7 + 60 * 30) {
      assert.equal(formatDay(seconds), day.format(seconds * 1000), String(seconds));
      assert.equal(formatHour(seconds), hour.format(seconds * 1000), String(seconds));
    }
  });

  it('tells a payment\'s history from its events, oldest first, with the failure\'s reason', () => {
    const event = (id: string, type: string, created: number, object: Record<string, unknown>): EventView => ({
      id,
      object: 'event',
      type,
      created,
      data: { object },
      request: null,
    });
    const intent = { id: 'pi_1', object: 'payment_intent', amount: 3250, currency: 'GBP' };
    const entries = timeline([
      event('evt_3', 'refund.created', 30, { id: 're_1', object: 'refund', amount: 500, currency: 'GBP', reason: 'requested_by_customer' }),
      event('evt_1', 'payment_intent.created', 10, intent),
      event('evt_2', 'payment_intent.payment_failed', 20, { ...intent, attempts: [{ error: { message: 'Your card was declined.' } }] }),
      event('evt_4', 'payment_intent.requires_action', 20, intent),
    ]);
    assert.deepEqual(
      entries.map((e) => [e.event.id, e.text, e.tone]),
      [
        ['evt_1', 'Payment of £32.50 created', 'info'],
        ['evt_2', 'Payment failed: Your card was declined.', 'bad'],
        ['evt_4', '3-D Secure challenge asked of the shopper', 'info'],
        ['evt_3', 'Refund of £5.00 created (requested by customer)', 'info'],
      ],
    );
  });
});
