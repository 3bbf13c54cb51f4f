import { CpeClient } from '../../../client/index.ts';
import type { Stack } from '../../../testkit/stack.ts';

export interface SeededData {
  paymentId: string;
  eventId: string;
  endpointId: string;
}

/**
 * Data for every page of the dashboard to show, made through the API as a merchant's server would:
 * paid, declined and uncaptured payments, a refund, a webhook endpoint (to an address nothing
 * answers, so its deliveries fail) and so its attempts.
 */
export async function seedDashboardData(stack: Stack): Promise<SeededData> {
  const { merchantId, licenceKey } = stack.service.credentials;
  const client = new CpeClient({ licenceKey, baseUrl: stack.serviceUrl });
  const endpoint = await client.createWebhookEndpoint({ url: 'http://127.0.0.1:9/hooks', enabled_events: ['*'] });
  const ids: string[] = [];
  for (const [i, number] of ['4242424242424242', '4000000000000002', '5555555555554444', '4242424242424242'].entries()) {
    const created = await client.createPaymentIntent({ merchantid: merchantId, amount: 1250 + i * 975, currency: 'GBP', identifier: `order-${1001 + i}`, autoCapture: i !== 3, metadata: { order: String(1001 + i) } });
    const token = await client.createToken({ card: { number, exp_month: '12', exp_year: String(new Date().getFullYear() + 3), cvc: '123', name: 'Ada Lovelace' } });
    await client.attach({ payment_intent_id: created.paymentIntentId, token: token.data.cp_card_token });
    await client.confirm({ payment_intent_id: created.paymentIntentId });
    await client.authorise({ payment_intent_id: created.paymentIntentId });
    ids.push(created.paymentIntentId);
  }
  await client.createRefund({ payment_intent: ids[0]!, amount: 500, reason: 'requested_by_customer' });
  // The endpoint's first attempts (refused: nothing listens there) recorded before any page is looked at.
  await stack.service.services.webhooks.deliverer.drain();
  const events = await client.listEvents({ limit: 1 });
  return { paymentId: ids[0]!, eventId: events.data[0]!.id, endpointId: endpoint.id };
}
