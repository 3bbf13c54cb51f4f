import { z } from 'zod';
import { ApiError, invalidParam, noSuch } from '../http/api-error.ts';
import type { Clock } from '../clock.ts';
import { newId } from '../identity/secrets.ts';
import { unchanging } from '../http/json-text.ts';
import { Recent } from '../http/recent.ts';
import type { Collection, Store } from '../store/store.ts';
import { listPage as page } from '../http/list-page.ts';
import type { EventType } from '../../api/events.ts';
import type { Events } from '../events/events.ts';
import { userOwner } from '../events/owner.ts';
import { previousAttributes } from '../events/previous-attributes.ts';
import type {
  Contact,
  ContactCreate,
  ContactListQuery,
  ContactUpdate,
  Conversation,
  ConversationCreate,
  ConversationListQuery,
  ConversationUpdate,
  ListQuery,
  Message,
  MessageCreate,
} from '../../api/messaging.ts';
import { OPENED_AT_LEEWAY_SECONDS } from '../../api/messaging.ts';

type Owned<T> = T & { user_id: string };
type StoredContact = Owned<Contact>;
type StoredConversation = Owned<Conversation>;
type StoredMessage = Owned<Message>;

/**
 * Public views of recently read stored rows: rows are frozen and replaced on update, so a row's view
 * never changes. Bounded, so reading every row of a large database does not keep a copy of each.
 */
const views = new Recent<object, object>(10_000);

/** Drops what only the store knows (owner, sequence) from a row (kept for rows read recently, frozen). */
function publicFields<T extends object>(row: Owned<T>): T {
  let view = views.get(row);
  if (view === undefined) {
    const { user_id: _owner, _seq: _sequence, ...rest } = row as Owned<T> & { _seq?: number };
    view = rest;
    // Only the store's rows (frozen, nested values too) are cached: anything else could change under the cache.
    if (Object.isFrozen(row)) views.set(row, (view = unchanging(Object.freeze(rest))));
  }
  return view as T;
}

/**
 * `<owner>:<flag>` index keys, made once per owner instead of once per row: loading a million rows
 * then looks a key up instead of building and hashing a new string for each.
 */
function flagKeys(): (owner: string, flag: boolean) => string {
  const made = new Map<string, [string, string]>();
  return (owner, flag) => {
    let keys = made.get(owner);
    if (!keys) made.set(owner, (keys = [`${owner}:false`, `${owner}:true`]));
    return keys[flag ? 1 : 0];
  };
}

/**
 * Contacts, conversations and messages of each user. Every read and write is scoped to the user:
 * another user's id answers exactly as an absent one. Changes are made durable by the request's
 * commit (server/http/durable-writes.ts) before the answer leaves, each with its event (one per
 * object changed: a message posted also moves its conversation's and contact's last_active_at).
 */
export class MessagingService {
  readonly #contacts: Collection<StoredContact>;
  readonly #conversations: Collection<StoredConversation>;
  readonly #messages: Collection<StoredMessage>;

  constructor(
    store: Store,
    private readonly clock: Clock,
    private readonly events: Events,
  ) {
    const active = flagKeys();
    const archived = flagKeys();
    this.#contacts = store.collection<StoredContact>('contacts', {
      owner: (c) => c.user_id,
      active: (c) => active(c.user_id, c.last_active_at !== null),
    });
    this.#conversations = store.collection<StoredConversation>('conversations', {
      owner: (c) => c.user_id,
      archived: (c) => archived(c.user_id, c.archived_at !== null),
      group: (c) => (c.group_id === null ? undefined : `${c.user_id}:${c.group_id}`),
    });
    this.#messages = store.collection<StoredMessage>('messages', { conversation: (m) => m.conversation_id });
  }

  // Contacts

  async listContacts(userId: string, query: z.output<typeof ContactListQuery>) {
    const result =
      query.active === undefined
        ? await page(this.#contacts, 'ctc', 'owner', userId, query)
        : await page(this.#contacts, 'ctc', 'active', `${userId}:${query.active}`, query, { index: 'owner', key: userId });
    return { object: 'list' as const, url: '/v1/contacts', has_more: result.hasMore, data: result.data.map(publicFields<Contact>) };
  }

  async createContact(userId: string, input: z.output<typeof ContactCreate>): Promise<Contact> {
    const now = this.clock.now();
    const contactId = newId('ctc');
    const conversation = await this.#insertConversation(userId, { contact_id: contactId, group_id: null }, now);
    const contact = await this.#contacts.insert({
      id: contactId,
      object: 'contact',
      user_id: userId,
      username: input.username,
      phone_number: input.phone_number,
      avatar_url: input.avatar_url ?? '',
      display_name: null,
      conversation_id: conversation.id,
      last_active_at: null,
      created_at: now,
    });
    await this.#record(userId, 'contact.created', contact);
    await this.#record(userId, 'conversation.created', conversation);
    return publicFields(contact);
  }

  async getContact(userId: string, id: string): Promise<Contact> {
    return publicFields(await this.#ownContact(userId, id));
  }

  async updateContact(userId: string, id: string, input: z.output<typeof ContactUpdate>): Promise<Contact> {
    const contact = await this.#ownContact(userId, id, true);
    const updated = input.display_name === undefined ? contact : await this.#contacts.update(id, { display_name: input.display_name });
    await this.#updated(userId, 'contact.updated', contact, updated);
    return publicFields(updated);
  }

  async deleteContact(userId: string, id: string) {
    const contact = await this.#ownContact(userId, id, true);
    const conversation = contact.conversation_id === null ? undefined : await this.#conversations.get(contact.conversation_id, { forUpdate: true });
    if (conversation?.user_id === userId) await this.#deleteConversationRows(conversation.id, userId);
    await this.#contacts.delete(id);
    await this.#record(userId, 'contact.deleted', contact);
    return { id, object: 'contact' as const, deleted: true as const };
  }

  // Conversations

  async listConversations(userId: string, query: z.output<typeof ConversationListQuery>) {
    const result =
      query.archived === undefined
        ? await page(this.#conversations, 'cnv', 'owner', userId, query)
        : await page(this.#conversations, 'cnv', 'archived', `${userId}:${query.archived}`, query, { index: 'owner', key: userId });
    return {
      object: 'list' as const,
      url: '/v1/conversations',
      has_more: result.hasMore,
      data: result.data.map(publicFields<Conversation>),
    };
  }

  async createConversation(userId: string, input: z.output<typeof ConversationCreate>): Promise<Conversation> {
    let conversation: StoredConversation;
    if (input.contact_id !== undefined) {
      const contact = await this.#contacts.get(input.contact_id, { forUpdate: true });
      if (contact?.user_id !== userId) throw noSuch('contact', input.contact_id, 'contact_id');
      // A contact's conversation is the one its conversation_id names: both ways of making one (a new
      // contact, or this) set it, so no index of conversations by contact is needed (a million fewer keys on start).
      if (contact.conversation_id !== null && (await this.#conversations.get(contact.conversation_id))?.contact_id === contact.id)
        throw new ApiError('resource_already_exists', `Contact '${contact.id}' already has conversation '${contact.conversation_id}'.`, 'contact_id');
      // The contact's conversation was deleted earlier: this one takes its place.
      conversation = await this.#insertConversation(userId, { contact_id: contact.id, group_id: null }, this.clock.now());
      await this.#record(userId, 'conversation.created', conversation);
      await this.#updated(userId, 'contact.updated', contact, await this.#contacts.update(contact.id, { conversation_id: conversation.id }));
    } else {
      const groupId = input.group_id!;
      const existing = await this.#conversations.first('group', `${userId}:${groupId}`);
      if (existing) throw new ApiError('resource_already_exists', `Group '${groupId}' already has conversation '${existing.id}'.`, 'group_id');
      conversation = await this.#insertConversation(userId, { contact_id: null, group_id: groupId }, this.clock.now());
      await this.#record(userId, 'conversation.created', conversation);
    }
    return publicFields(conversation);
  }

  async getConversation(userId: string, id: string): Promise<Conversation> {
    return publicFields(await this.#ownConversation(userId, id));
  }

  async updateConversation(userId: string, id: string, input: z.output<typeof ConversationUpdate>): Promise<Conversation> {
    const conversation = await this.#ownConversation(userId, id, true);
    const patch: Partial<StoredConversation> = {};
    if (input.is_pinned !== undefined) patch.is_pinned = input.is_pinned;
    if (input.is_muted !== undefined) patch.is_muted = input.is_muted;
    if (input.last_opened_at !== undefined) {
      if (input.last_opened_at > this.clock.now() + OPENED_AT_LEEWAY_SECONDS)
        throw invalidParam('last_opened_at', `Invalid last_opened_at: must not be more than ${OPENED_AT_LEEWAY_SECONDS} seconds in the future.`);
      patch.last_opened_at = input.last_opened_at;
    }
    if (input.archived !== undefined) {
      // Archiving an archived conversation keeps its first archived_at.
      patch.archived_at = input.archived ? (conversation.archived_at ?? this.clock.now()) : null;
    }
    if (input.pinned_message_id !== undefined) {
      const messageId = input.pinned_message_id;
      if (messageId !== null && (await this.#messages.get(messageId))?.conversation_id !== id)
        throw noSuch(`message in conversation '${id}'`, messageId, 'pinned_message_id');
      patch.pinned_message_id = messageId;
    }
    const updated = Object.keys(patch).length ? await this.#conversations.update(id, patch) : conversation;
    await this.#updated(userId, 'conversation.updated', conversation, updated);
    return publicFields(updated);
  }

  async deleteConversation(userId: string, id: string) {
    const contact = await this.#contactFirst(userId, id);
    await this.#ownConversation(userId, id, true);
    await this.#deleteConversationRows(id, userId);
    // As the Stripe API clears a reference to a deleted object: the contact names no conversation until a new one is made.
    if (contact?.conversation_id === id) await this.#updated(userId, 'contact.updated', contact, await this.#contacts.update(contact.id, { conversation_id: null }));
    return { id, object: 'conversation' as const, deleted: true as const };
  }

  // Messages

  async listMessages(userId: string, conversationId: string, query: ListQuery) {
    await this.#ownConversation(userId, conversationId);
    const result = await page(this.#messages, 'msg', 'conversation', conversationId, query);
    return {
      object: 'list' as const,
      url: `/v1/conversations/${conversationId}/messages`,
      has_more: result.hasMore,
      data: result.data.map(publicFields<Message>),
    };
  }

  async createMessage(userId: string, conversationId: string, input: z.output<typeof MessageCreate>): Promise<Message> {
    const contact = await this.#contactFirst(userId, conversationId);
    const conversation = await this.#ownConversation(userId, conversationId, true);
    const now = this.clock.now();
    const message = await this.#messages.insert({
      id: newId('msg'),
      object: 'message',
      user_id: userId,
      conversation_id: conversationId,
      sender: input.sender ?? 'user',
      text: input.text,
      created_at: now,
    });
    await this.#record(userId, 'message.created', message);
    await this.#updated(userId, 'conversation.updated', conversation, await this.#conversations.update(conversationId, { last_active_at: now }));
    if (contact) await this.#updated(userId, 'contact.updated', contact, await this.#contacts.update(contact.id, { last_active_at: now }));
    return publicFields(message);
  }

  /**
   * The contact of a conversation, locked for a change (see Collection.get), before the conversation
   * itself is: every change that takes both takes the contact first (deleteContact does), so two of
   * them racing on PostgreSQL wait for each other instead of deadlocking.
   */
  async #contactFirst(userId: string, conversationId: string): Promise<StoredContact | undefined> {
    const { contact_id: contactId } = await this.#ownConversation(userId, conversationId);
    return contactId === null ? undefined : this.#contacts.get(contactId, { forUpdate: true });
  }

  #insertConversation(userId: string, owner: Pick<Conversation, 'contact_id' | 'group_id'>, now: number): Promise<StoredConversation> {
    return this.#conversations.insert({
      id: newId('cnv'),
      object: 'conversation',
      user_id: userId,
      ...owner,
      pinned_message_id: null,
      is_pinned: false,
      is_muted: false,
      last_active_at: null,
      last_opened_at: null,
      created_at: now,
      archived_at: null,
    });
  }

  /** Deletes a conversation and its messages: one event, conversation.deleted (its messages go with it). */
  async #deleteConversationRows(id: string, userId: string): Promise<void> {
    for (const message of [...(await this.#messages.find('conversation', id))]) await this.#messages.delete(message.id);
    const conversation = await this.#conversations.get(id);
    await this.#conversations.delete(id);
    if (conversation) await this.#record(userId, 'conversation.deleted', conversation);
  }

  /** The event of a created (or deleted) object: the object as the API answers it (as it was). */
  #record(userId: string, type: EventType, row: Owned<object>): Promise<unknown> {
    return this.events.record(userOwner(userId), type, publicFields(row));
  }

  /** The event of an update, when it changed anything the API answers. */
  async #updated(userId: string, type: EventType, before: Owned<object>, after: Owned<object>): Promise<void> {
    const [was, now] = [publicFields(before), publicFields(after)];
    if (previousAttributes(was as Record<string, unknown>, now as Record<string, unknown>)) await this.events.record(userOwner(userId), type, now, was);
  }

  /** `forUpdate`: the caller changes it (see Collection.get). */
  async #ownContact(userId: string, id: string, forUpdate = false): Promise<StoredContact> {
    const contact = await this.#contacts.get(id, { forUpdate });
    if (contact?.user_id !== userId) throw noSuch('contact', id);
    return contact;
  }

  async #ownConversation(userId: string, id: string, forUpdate = false): Promise<StoredConversation> {
    const conversation = await this.#conversations.get(id, { forUpdate });
    if (conversation?.user_id !== userId) throw noSuch('conversation', id);
    return conversation;
  }
}
