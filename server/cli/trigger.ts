import { EVENT_TYPES, type EventType } from '../../api/events.ts';
import { apiLink, type ApiLink } from './api-link.ts';

/**
 * `npm run -s trigger -- <event type> [<event type>…]`: as `stripe trigger`, makes the objects whose change is that
 * event, through the public API as the seeded merchant (payment events) or the seeded messaging user
 * (messaging events), and prints the event it caused.
 */

type Step = (api: ApiLink) => Promise<unknown>;

const CARDS = { visa: '4242424242424242', challenge: '4000000000003220', declined: '4000000000000002', refundFails: '4000000000005126' } as const;

const step = (what: string, run: () => Promise<any>) => {
  process.stderr.write(`Running: ${what}\n`);
  return run();
};

async function intent(api: ApiLink, options: { card?: keyof typeof CARDS; autoCapture?: boolean; confirm?: boolean; authorise?: boolean } = {}) {
  const { merchantId } = api.credentials;
  const created = await step('POST /v1/payment_intents', () =>
    api.call('POST', '/v1/payment_intents', { merchantid: merchantId, amount: 2000, currency: 'GBP', identifier: `trigger-${Date.now()}`, autoCapture: options.autoCapture ?? true }),
  );
  const id = created.paymentIntentId as string;
  if (!options.card) return id;
  const token = await step('POST /v1/tokens', () =>
    api.call('POST', '/v1/tokens', { card: { number: CARDS[options.card!], exp_month: '12', exp_year: String(new Date().getUTCFullYear() + 2), cvc: '123', name: 'Trigger Test' } }),
  );
  await step('POST /v1/payment_intents/attach', () => api.call('POST', '/v1/payment_intents/attach', { payment_intent_id: id, token: token.data.cp_card_token }));
  if (options.confirm) await step('POST /v1/payment_intents/confirm', () => api.call('POST', '/v1/payment_intents/confirm', { payment_intent_id: id }));
  if (options.authorise) await step('POST /v1/payment_intents/authorise', () => api.call('POST', '/v1/payment_intents/authorise', { payment_intent_id: id }));
  return id;
}

/** A refund of a paid intent; with `refundFails`, one that is pending, then fails: waited for until it has settled. */
async function refund(api: ApiLink, card: 'visa' | 'refundFails') {
  const id = await intent(api, { card, confirm: true, authorise: true });
  const made = await step('POST /v1/refunds', () => api.call('POST', '/v1/refunds', { payment_intent: id }));
  if (made.status !== 'pending') return;
  process.stderr.write('Waiting for the pending refund to settle (a few seconds)…\n');
  for (;;) {
    // The service settles it on its own clock: nothing to await but its answer.
    await new Promise((resolve) => setTimeout(resolve, 500));
    if ((await api.call('GET', `/v1/refunds/${made.id}`)).status !== 'pending') return;
  }
}

/** As the seeded messaging user. */
const user = (api: ApiLink, method: string, path: string, body?: unknown) => step(`${method} ${path}`, () => api.call(method, path, body, api.credentials.accessToken));
const contact = (api: ApiLink) => user(api, 'POST', '/v1/contacts', { username: `trigger_${Date.now()}`, phone_number: '+44 20 7946 0958' });
const group = (api: ApiLink) => user(api, 'POST', '/v1/conversations', { group_id: `trigger-${Date.now()}` });

/** What makes each event: every type has one (a new type fails the type check until it does). */
const RECIPES: Record<EventType, Step> = {
  'payment_intent.created': (api) => intent(api),
  'payment_intent.updated': (api) => intent(api, { card: 'visa' }),
  'payment_intent.requires_action': (api) => intent(api, { card: 'challenge', confirm: true }),
  'payment_intent.amount_capturable_updated': (api) => intent(api, { card: 'visa', autoCapture: false, confirm: true, authorise: true }),
  'payment_intent.succeeded': (api) => intent(api, { card: 'visa', confirm: true, authorise: true }),
  'payment_intent.payment_failed': (api) => intent(api, { card: 'declined', confirm: true, authorise: true }),
  'payment_intent.cancelled': async (api) => {
    const id = await intent(api);
    await step('POST /v1/payment_intents/cancel', () => api.call('POST', '/v1/payment_intents/cancel', { payment_intent_id: id }));
  },
  'refund.created': (api) => refund(api, 'visa'),
  'refund.succeeded': (api) => refund(api, 'visa'),
  'refund.updated': (api) => refund(api, 'refundFails'),
  'refund.failed': (api) => refund(api, 'refundFails'),
  'contact.created': (api) => contact(api),
  'contact.updated': async (api) => {
    const made = await contact(api);
    await user(api, 'PUT', `/v1/contacts/${made.id}`, { display_name: 'Triggered' });
  },
  'contact.deleted': async (api) => user(api, 'DELETE', `/v1/contacts/${(await contact(api)).id}`),
  'conversation.created': (api) => group(api),
  'conversation.updated': async (api) => user(api, 'PUT', `/v1/conversations/${(await group(api)).id}`, { is_pinned: true }),
  'conversation.deleted': async (api) => user(api, 'DELETE', `/v1/conversations/${(await group(api)).id}`),
  'message.created': async (api) => user(api, 'POST', `/v1/conversations/${(await contact(api)).conversation_id}/messages`, { text: 'Triggered' }),
};

// Several types in one run, as a test or a script wants them all: each made in turn, one line each.
const types = process.argv.slice(2);
const unknown = types.filter((type) => !Object.hasOwn(RECIPES, type));
if (types.length === 0 || unknown.length > 0) {
  if (unknown.length > 0) process.stderr.write(`Unknown event type: ${unknown.join(', ')}\n`);
  process.stderr.write(`Usage: npm run -s trigger -- <event type> [<event type>…], each one of:\n  ${Object.keys(EVENT_TYPES).join('\n  ')}\n`);
  process.exit(2);
}
try {
  const api = apiLink();
  for (const type of types as EventType[]) {
    await RECIPES[type](api);
    const token = EVENT_TYPES[type].owner === 'merchant' ? api.credentials.licenceKey : api.credentials.accessToken;
    const [event] = (await api.call('GET', `/v1/events?limit=1&type=${type}`, undefined, token)).data;
    process.stdout.write(`${JSON.stringify({ type, event: event.id, object: event.data.object.id })}\n`);
    process.stderr.write(`Trigger succeeded: ${event.id}. Check your webhook endpoints (npm run -s listen).\n`);
  }
} catch (error) {
  process.stderr.write(`Trigger failed: ${(error as Error).message}\n`);
  process.exit(1);
}
