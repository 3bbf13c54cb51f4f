import { z } from 'zod';
import { DashboardLinkCreate, DashboardLinkCreated, MerchantCreate, MerchantCreated, TokenIssue, TokenIssued } from './admin.ts';
import {
  Contact,
  ContactCreate,
  ContactList,
  ContactListQuery,
  ContactUpdate,
  Conversation,
  ConversationCreate,
  ConversationList,
  ConversationListQuery,
  ConversationUpdate,
  Deleted,
  Message,
  MessageCreate,
  MessageList,
  MessageListQuery,
} from './messaging.ts';
import {
  AttachRequest,
  AttachResponse,
  AuthoriseResponse,
  CancelRequest,
  CaptureRequest,
  ConfirmResponse,
  IntentRequest,
  PaymentIntent,
  PaymentIntentCreate,
  PaymentIntentCreated,
  PaymentIntentList,
  PaymentIntentListQuery,
  PaymentIntentUpdate,
  PublicKeyCheck,
  SessionAttachRequest,
  SessionIntent,
  SessionIntentRequest,
  TokenCreateRequest,
  TokeniseRequest,
  TokeniseResponse,
  VerifyRequest,
  VerifyResponse,
} from './payments.ts';
import { Refund, RefundCreate, RefundList, RefundListQuery } from './refunds.ts';
import { Event, EventList, EventListQuery } from './events.ts';
import { ROUTES, type OperationName, type Route } from './routes.ts';
import {
  EventRetryRequest,
  RotateSecretRequest,
  WebhookAttemptList,
  WebhookAttemptListQuery,
  WebhookDelivery,
  WebhookEndpoint,
  WebhookEndpointCreate,
  WebhookEndpointList,
  WebhookEndpointListQuery,
  WebhookEndpointUpdate,
  WebhookEndpointWithSecret,
} from './webhooks.ts';
import { WalletApproveRequest, WalletApproveResponse, WalletSheetView } from './wallet.ts';

export type { OperationName };

/** What an operation takes (its JSON or form body, its query) and answers (200). */
export interface Schemas {
  body?: z.ZodType;
  query?: z.ZodType;
  response: z.core.$ZodType;
}

/**
 * What each operation of routes.ts takes and answers, by the same name: with ROUTES, the one table
 * of the service's operations. The server mounts each row (server/http/operation.ts), the API
 * description is generated from them (server/openapi.ts), and the Node client's methods are typed
 * by them (client/cpe-client.ts).
 */
export const SCHEMAS = {
  listContacts: { query: ContactListQuery, response: ContactList },
  createContact: { body: ContactCreate, response: Contact },
  retrieveContact: { response: Contact },
  updateContact: { body: ContactUpdate, response: Contact },
  deleteContact: { response: Deleted('contact') },
  listConversations: { query: ConversationListQuery, response: ConversationList },
  createConversation: { body: ConversationCreate, response: Conversation },
  retrieveConversation: { response: Conversation },
  updateConversation: { body: ConversationUpdate, response: Conversation },
  deleteConversation: { response: Deleted('conversation') },
  listMessages: { query: MessageListQuery, response: MessageList },
  createMessage: { body: MessageCreate, response: Message },

  createToken: { body: TokenCreateRequest, response: TokeniseResponse },
  createPaymentIntent: { body: PaymentIntentCreate, response: PaymentIntentCreated },
  listPaymentIntents: { query: PaymentIntentListQuery, response: PaymentIntentList },
  retrievePaymentIntent: { response: PaymentIntent },
  attachPaymentIntent: { body: AttachRequest, response: AttachResponse },
  confirmPaymentIntent: { body: IntentRequest, response: ConfirmResponse },
  authorisePaymentIntent: { body: IntentRequest, response: AuthoriseResponse },
  capturePaymentIntent: { body: CaptureRequest, response: PaymentIntent },
  cancelPaymentIntent: { body: CancelRequest, response: PaymentIntent },
  verifyPaymentIntent: { body: VerifyRequest, response: VerifyResponse },
  updatePaymentIntent: { body: PaymentIntentUpdate, response: PaymentIntent },
  createRefund: { body: RefundCreate, response: Refund },
  listRefunds: { query: RefundListQuery, response: RefundList },
  retrieveRefund: { response: Refund },

  listEvents: { query: EventListQuery, response: EventList },
  retrieveEvent: { response: Event },
  retryEvent: { body: EventRetryRequest, response: WebhookDelivery },

  createWebhookEndpoint: { body: WebhookEndpointCreate, response: WebhookEndpointWithSecret },
  listWebhookEndpoints: { query: WebhookEndpointListQuery, response: WebhookEndpointList },
  retrieveWebhookEndpoint: { response: WebhookEndpoint },
  updateWebhookEndpoint: { body: WebhookEndpointUpdate, response: WebhookEndpoint },
  deleteWebhookEndpoint: { response: Deleted('webhook_endpoint') },
  rotateWebhookEndpointSecret: { body: RotateSecretRequest, response: WebhookEndpointWithSecret },
  listWebhookAttempts: { query: WebhookAttemptListQuery, response: WebhookAttemptList },

  checkPublicKey: { response: PublicKeyCheck },
  retrieveSessionIntent: { response: SessionIntent },
  attachSessionIntent: { body: SessionAttachRequest, response: AttachResponse },
  confirmSessionIntent: { body: SessionIntentRequest, response: ConfirmResponse },
  authoriseSessionIntent: { body: SessionIntentRequest, response: AuthoriseResponse },
  tokeniseCard: { body: TokeniseRequest, response: TokeniseResponse },
  retrieveWalletSheet: { body: z.strictObject({}), response: WalletSheetView },
  approveWalletSheet: { body: WalletApproveRequest, response: WalletApproveResponse },

  issueToken: { body: TokenIssue, response: TokenIssued },
  createMerchant: { body: MerchantCreate, response: MerchantCreated },
  createDashboardLink: { body: DashboardLinkCreate, response: DashboardLinkCreated },
} satisfies { [K in OperationName]: Schemas };

/** One row of the table: where the operation is, who may call it, what it takes and answers. */
export interface Operation extends Route, Schemas {
  name: OperationName;
}

export const operation = (name: OperationName): Operation => ({ name, ...ROUTES[name], ...SCHEMAS[name] });

/** Every operation, in the order of routes.ts. */
export const OPERATIONS: readonly Operation[] = (Object.keys(ROUTES) as OperationName[]).map(operation);

/** What a caller sends as an operation's body and query, and what it gets back: its schemas' input and output types. */
export type BodyIn<K extends OperationName> = (typeof SCHEMAS)[K] extends { body: infer B extends z.ZodType } ? z.input<B> : never;
export type QueryIn<K extends OperationName> = (typeof SCHEMAS)[K] extends { query: infer Q extends z.ZodType } ? z.input<Q> : never;
export type Answer<K extends OperationName> = z.output<(typeof SCHEMAS)[K]['response']>;
