import type { Answer, BodyIn, QueryIn } from '../api/operations.ts';
import { Transport, type RequestOptions, type TransportOptions } from './transport.ts';

export interface CpeMessagingClientOptions extends TransportOptions {
  /** A messaging user's access token (`npm run -s token -- <username>`). Server side only. */
  accessToken: string;
}

/**
 * The typed Node client of the messaging API (`import { CpeMessagingClient } from 'cpe/server'`):
 * one method per operation of the table (api/routes.ts), typed by its schemas, with the same
 * retries and idempotency keys as CpeClient.
 *
 * ```ts
 * const inbox = new CpeMessagingClient({ accessToken: process.env.CPE_ACCESS_TOKEN!, baseUrl: 'http://localhost:4242' });
 * const contact = await inbox.createContact({ username: 'bob', phone_number: '07700900123' });
 * await inbox.createMessage(contact.conversation_id!, { text: 'Hello' });
 * ```
 */
export class CpeMessagingClient {
  readonly #transport: Transport;

  constructor(options: CpeMessagingClientOptions) {
    if ('window' in globalThis) throw new Error('CpeMessagingClient holds an access token: use it on your server, never in a browser.');
    if (!options.accessToken) throw new Error('CpeMessagingClient needs an access token (npm run -s token -- <username>).');
    this.#transport = new Transport(options.accessToken, options);
  }

  listContacts(query: QueryIn<'listContacts'> = {}): Promise<Answer<'listContacts'>> {
    return this.#transport.call('listContacts', { query });
  }

  createContact(input: BodyIn<'createContact'>, options?: RequestOptions): Promise<Answer<'createContact'>> {
    return this.#transport.call('createContact', { body: input, ...options });
  }

  retrieveContact(id: string): Promise<Answer<'retrieveContact'>> {
    return this.#transport.call('retrieveContact', { params: { id } });
  }

  updateContact(id: string, input: BodyIn<'updateContact'>): Promise<Answer<'updateContact'>> {
    return this.#transport.call('updateContact', { params: { id }, body: input });
  }

  deleteContact(id: string): Promise<Answer<'deleteContact'>> {
    return this.#transport.call('deleteContact', { params: { id } });
  }

  listConversations(query: QueryIn<'listConversations'> = {}): Promise<Answer<'listConversations'>> {
    return this.#transport.call('listConversations', { query });
  }

  createConversation(input: BodyIn<'createConversation'>, options?: RequestOptions): Promise<Answer<'createConversation'>> {
    return this.#transport.call('createConversation', { body: input, ...options });
  }

  retrieveConversation(id: string): Promise<Answer<'retrieveConversation'>> {
    return this.#transport.call('retrieveConversation', { params: { id } });
  }

  /** Pin, mute, archive or restore, pin a message, mark opened. */
  updateConversation(id: string, input: BodyIn<'updateConversation'>): Promise<Answer<'updateConversation'>> {
    return this.#transport.call('updateConversation', { params: { id }, body: input });
  }

  deleteConversation(id: string): Promise<Answer<'deleteConversation'>> {
    return this.#transport.call('deleteConversation', { params: { id } });
  }

  listMessages(conversationId: string, query: QueryIn<'listMessages'> = {}): Promise<Answer<'listMessages'>> {
    return this.#transport.call('listMessages', { params: { id: conversationId }, query });
  }

  createMessage(conversationId: string, input: BodyIn<'createMessage'>, options?: RequestOptions): Promise<Answer<'createMessage'>> {
    return this.#transport.call('createMessage', { params: { id: conversationId }, body: input, ...options });
  }
}
