/**
 * Where each operation of the service's API is and who may call it: its method, its path (Koa
 * style, `/v1/contacts/:id`), its auth, the tag and summary of its description. What it takes and
 * answers is the other half of its row, in operations.ts, under the same name.
 *
 * Plain data with no import: the Node client (client/, compiled into `cpe/server`) reads its paths
 * here at run time and takes only the types of operations.ts, so it carries no zod.
 */

export type Method = 'get' | 'post' | 'put' | 'delete';
/** Who may call an operation; each but `admin` maps to an OpenAPI security scheme. */
export type Auth = 'accessToken' | 'licenceKey' | 'licenceKeyOrAccessToken' | 'session' | 'none' | 'admin';

export interface Route {
  method: Method;
  path: string;
  auth: Auth;
  tag: string;
  summary: string;
  /** Not part of the public API, so not in its description: the CLI's own (auth `admin`). */
  internal?: true;
}

const contacts = { auth: 'accessToken', tag: 'Contacts' } as const;
const conversations = { auth: 'accessToken', tag: 'Conversations' } as const;
const messages = { auth: 'accessToken', tag: 'Messages' } as const;
const intents = { auth: 'licenceKey', tag: 'Payment Intents' } as const;
const refunds = { auth: 'licenceKey', tag: 'Refunds' } as const;
const browser = { auth: 'session', tag: 'Browser (session)' } as const;
/** A merchant's payment events with its licence key, a messaging user's with its access token. */
const events = { auth: 'licenceKeyOrAccessToken', tag: 'Events' } as const;
const webhooks = { auth: 'licenceKeyOrAccessToken', tag: 'Webhook endpoints' } as const;
const frames = { auth: 'session', tag: 'Hosted frames' } as const;
const admin = { auth: 'admin', tag: 'Admin (the CLI)', internal: true } as const;

/** Every operation, in the order the API description lists them. */
export const ROUTES = {
  // The messaging API (server/messaging/routes.ts).
  listContacts: { ...contacts, method: 'get', path: '/v1/contacts', summary: 'List contacts, newest first' },
  createContact: { ...contacts, method: 'post', path: '/v1/contacts', summary: 'Create a contact and its conversation' },
  retrieveContact: { ...contacts, method: 'get', path: '/v1/contacts/:id', summary: 'Retrieve a contact' },
  updateContact: { ...contacts, method: 'put', path: '/v1/contacts/:id', summary: 'Update a contact (display_name only)' },
  deleteContact: { ...contacts, method: 'delete', path: '/v1/contacts/:id', summary: 'Delete a contact and its conversation' },
  listConversations: { ...conversations, method: 'get', path: '/v1/conversations', summary: 'List conversations, newest first' },
  createConversation: { ...conversations, method: 'post', path: '/v1/conversations', summary: 'Create a conversation with a contact or a group' },
  retrieveConversation: { ...conversations, method: 'get', path: '/v1/conversations/:id', summary: 'Retrieve a conversation' },
  updateConversation: { ...conversations, method: 'put', path: '/v1/conversations/:id', summary: 'Pin, mute, archive or restore a conversation, pin a message, mark it opened' },
  deleteConversation: { ...conversations, method: 'delete', path: '/v1/conversations/:id', summary: 'Delete a conversation and all its messages' },
  listMessages: { ...messages, method: 'get', path: '/v1/conversations/:id/messages', summary: 'List the messages of a conversation, newest first' },
  createMessage: { ...messages, method: 'post', path: '/v1/conversations/:id/messages', summary: 'Post a message; moves last_active_at of the conversation and its contact' },

  // The backend payment routes, licence key (server/payments/payment-routes.ts; the Node client's).
  createToken: { auth: 'licenceKey', tag: 'Tokens', method: 'post', path: '/v1/tokens', summary: 'Test mode: tokenise a card from your server; the token attaches once, to any of your intents' },
  createPaymentIntent: { ...intents, method: 'post', path: '/v1/payment_intents', summary: 'Create a Payment Intent' },
  listPaymentIntents: { ...intents, method: 'get', path: '/v1/payment_intents', summary: 'List your Payment Intents, newest first; filter by status, created and metadata' },
  retrievePaymentIntent: { ...intents, method: 'get', path: '/v1/payment_intents/:id', summary: 'Retrieve a Payment Intent with its attempts' },
  attachPaymentIntent: { ...intents, method: 'post', path: '/v1/payment_intents/attach', summary: 'Attach a card token (or vaulted card) to a Payment Intent' },
  confirmPaymentIntent: { ...intents, method: 'post', path: '/v1/payment_intents/confirm', summary: 'Confirm: 3-D Secure (challenge or frictionless)' },
  authorisePaymentIntent: { ...intents, method: 'post', path: '/v1/payment_intents/authorise', summary: 'Authorise (and capture unless autoCapture is false)' },
  capturePaymentIntent: { ...intents, method: 'post', path: '/v1/payment_intents/capture', summary: 'Capture an authorisation once, in full or in part' },
  cancelPaymentIntent: { ...intents, method: 'post', path: '/v1/payment_intents/cancel', summary: 'Cancel a Payment Intent (voids an uncaptured authorisation)' },
  verifyPaymentIntent: { ...intents, method: 'post', path: '/v1/payment_intents/verify', summary: 'Verify the payment ended in authorised funds; personal fields redacted unless unmasked' },
  // After the fixed paths above (attach, confirm…): a router tries routes in the order they are mounted.
  updatePaymentIntent: { ...intents, method: 'post', path: '/v1/payment_intents/:id', summary: 'Update the metadata and description of a Payment Intent' },
  createRefund: { ...refunds, method: 'post', path: '/v1/refunds', summary: 'Refund captured money of a succeeded Payment Intent, in full or in part' },
  listRefunds: { ...refunds, method: 'get', path: '/v1/refunds', summary: 'List your refunds, newest first; filter by payment_intent and created' },
  retrieveRefund: { ...refunds, method: 'get', path: '/v1/refunds/:id', summary: 'Retrieve a refund' },

  // Events of the credential's owner (server/events/event-routes.ts).
  listEvents: { ...events, method: 'get', path: '/v1/events', summary: 'List your events, newest first; filter by type (payment_intent.* wildcards) and created' },
  retrieveEvent: { ...events, method: 'get', path: '/v1/events/:id', summary: 'Retrieve an event' },
  retryEvent: { ...events, method: 'post', path: '/v1/events/:id/retry', summary: 'Send an event to one of your webhook endpoints again, now' },

  // Webhook endpoints of the credential's owner (server/webhooks/webhook-routes.ts).
  createWebhookEndpoint: { ...webhooks, method: 'post', path: '/v1/webhook_endpoints', summary: 'Create a webhook endpoint; the answer shows its signing secret (whsec_…), once' },
  listWebhookEndpoints: { ...webhooks, method: 'get', path: '/v1/webhook_endpoints', summary: 'List your webhook endpoints, newest first' },
  retrieveWebhookEndpoint: { ...webhooks, method: 'get', path: '/v1/webhook_endpoints/:id', summary: 'Retrieve a webhook endpoint' },
  updateWebhookEndpoint: { ...webhooks, method: 'post', path: '/v1/webhook_endpoints/:id', summary: 'Update its url, enabled_events or description; disable or enable it' },
  deleteWebhookEndpoint: { ...webhooks, method: 'delete', path: '/v1/webhook_endpoints/:id', summary: 'Delete a webhook endpoint and what is pending for it' },
  rotateWebhookEndpointSecret: {
    ...webhooks,
    method: 'post',
    path: '/v1/webhook_endpoints/:id/rotate_secret',
    summary: 'A new signing secret; for 24 hours deliveries are signed with the new and the old one',
  },
  listWebhookAttempts: { ...webhooks, method: 'get', path: '/v1/webhook_endpoints/:id/attempts', summary: 'The delivery attempts to this endpoint, newest first' },

  // The session routes of the SDK in direct mode, and the hosted frames' (server/payments/payment-routes.ts, wallet-routes.ts).
  checkPublicKey: {
    auth: 'none',
    tag: 'Browser (session)',
    method: 'get',
    path: '/v1/public_keys/:key',
    summary: "Whether a public key exists and the calling page's Origin is registered for it (the SDK asks before it mounts; CORS for any origin; nothing about other merchants)",
  },
  retrieveSessionIntent: { ...browser, method: 'get', path: '/intent', summary: "The session's Payment Intent: status and amount (for the pay button)" },
  attachSessionIntent: { ...browser, method: 'post', path: '/intent/attach', summary: "Attach a card token to the session's Payment Intent" },
  confirmSessionIntent: { ...browser, method: 'post', path: '/intent/confirm', summary: "Confirm the session's Payment Intent (3-D Secure)" },
  authoriseSessionIntent: { ...browser, method: 'post', path: '/intent/authorise', summary: "Authorise the session's Payment Intent (direct mode)" },
  tokeniseCard: { ...frames, method: 'post', path: '/frames/tokenise', summary: 'Tokenise a card (hosted frames only): a single-use token valid 15 minutes' },
  retrieveWalletSheet: { ...frames, method: 'post', path: '/frames/wallet/sheet', summary: "Wallet test sheet: what it shows (the amount, the currency, the merchant's registered name) (hosted frames only)" },
  approveWalletSheet: { ...frames, method: 'post', path: '/frames/wallet/approve', summary: 'Wallet test sheet: Approve with a test card; a single-use wallet token (hosted frames only)' },

  // The CLI's, inside the running service: from this machine only, with the secret it wrote to its data folder (server/admin/admin-routes.ts).
  issueToken: { ...admin, method: 'post', path: '/admin/tokens', summary: 'Create the messaging user if needed and issue an access token (npm run -s token)' },
  createMerchant: { ...admin, method: 'post', path: '/admin/merchants', summary: 'Create a test merchant for page origins (npm run -s merchant)' },
  createDashboardLink: { ...admin, method: 'post', path: '/admin/dashboard_links', summary: 'A one-time sign-in link to the dashboard (npm run -s dashboard)' },
} as const satisfies Record<string, Route>;

export type OperationName = keyof typeof ROUTES;

/** A route's path with its `:name` parameters filled in (each encoded as one path segment). */
export function pathOf(route: Route, params: Record<string, string> = {}): string {
  return route.path.replace(/:(\w+)/g, (_, name: string) => {
    if (params[name] === undefined) throw new Error(`${route.path} needs ${name}`);
    return encodeURIComponent(params[name]);
  });
}
