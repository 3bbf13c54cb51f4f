import { z } from 'zod';
import { formBoolean, formInt, idString, listEnvelope, listQuery, multilineText, text } from './form-values.ts';

/** A messaging user's name: 1 to 64 letters (of any script: accents, Arabic, Chinese…), digits, dots, dashes or underscores. */
export const USERNAME = /^[\p{L}\p{M}\p{N}_.-]{1,64}$/u;

const timestamp = z.int().describe('Unix time in seconds');

/** How far ahead of the service's clock `last_opened_at` may be: a client's clock running a little fast is not refused. */
export const OPENED_AT_LEEWAY_SECONDS = 300;

export const Contact = z
  .object({
    id: z.string(),
    object: z.literal('contact'),
    username: z.string(),
    phone_number: z.string(),
    avatar_url: z.string().describe('Empty when none was given'),
    display_name: z.string().nullable(),
    conversation_id: z.string().nullable().describe('Null after its conversation is deleted, until a new one is created'),
    last_active_at: timestamp.nullable(),
    created_at: timestamp,
  })
  .meta({ id: 'Contact' });
export type Contact = z.infer<typeof Contact>;

export const Conversation = z
  .object({
    id: z.string(),
    object: z.literal('conversation'),
    contact_id: z.string().nullable(),
    group_id: z.string().nullable(),
    pinned_message_id: z.string().nullable(),
    is_pinned: z.boolean(),
    is_muted: z.boolean(),
    last_active_at: timestamp.nullable(),
    last_opened_at: timestamp.nullable(),
    created_at: timestamp,
    archived_at: timestamp.nullable(),
  })
  .meta({ id: 'Conversation' });
export type Conversation = z.infer<typeof Conversation>;

export const Message = z
  .object({
    id: z.string(),
    object: z.literal('message'),
    conversation_id: z.string(),
    sender: z.enum(['user', 'contact']),
    text: z.string(),
    created_at: timestamp,
  })
  .meta({ id: 'Message' });
export type Message = z.infer<typeof Message>;

export const Deleted = (object: string) => z.object({ id: z.string(), object: z.literal(object), deleted: z.literal(true) });

export const ContactList = listEnvelope(Contact).meta({ id: 'ContactList' });
export const ConversationList = listEnvelope(Conversation).meta({ id: 'ConversationList' });
export const MessageList = listEnvelope(Message).meta({ id: 'MessageList' });



export const ContactCreate = z.strictObject({
  username: z.string().regex(USERNAME, 'expected 1 to 64 letters (of any script), digits, dots, dashes or underscores'),
  phone_number: z
    .string()
    .regex(/^\+?[0-9][0-9 ().-]{2,22}[0-9]$/, 'expected a phone number such as +44 20 7946 0958'),
  avatar_url: z
    .string()
    .max(2048, 'must be at most 2048 characters')
    .regex(/^https?:\/\/[^\s]+$/, 'expected an http or https URL')
    .optional(),
});

const clearable = <T extends z.ZodType>(schema: T) =>
  z.union([schema, z.literal(''), z.null()]).transform((v) => (v === '' || v === null ? null : (v as z.output<T>)));

export const ContactUpdate = z.strictObject({
  display_name: clearable(text(100)).optional(),
});

export const ContactListQuery = z.strictObject({ ...listQuery, active: formBoolean.optional() });

export const ConversationCreate = z
  .strictObject({
    contact_id: idString.optional(),
    group_id: z.string().regex(/^[A-Za-z0-9_-]{1,64}$/, 'expected 1 to 64 letters, digits, dashes or underscores').optional(),
  })
  .superRefine((value, ctx) => {
    if ((value.contact_id === undefined) === (value.group_id === undefined)) {
      ctx.addIssue({
        code: 'custom',
        path: [value.contact_id === undefined ? 'contact_id' : 'group_id'],
        message: 'exactly one of contact_id or group_id is required',
      });
    }
  });

export const ConversationUpdate = z.strictObject({
  is_pinned: formBoolean.optional(),
  is_muted: formBoolean.optional(),
  pinned_message_id: clearable(idString).optional(),
  archived: formBoolean.optional(),
  last_opened_at: formInt(0, 99_999_999_999)
    .describe(`Unix seconds, at most ${OPENED_AT_LEEWAY_SECONDS} s ahead of the service's clock`)
    .optional(),
});

export const ConversationListQuery = z.strictObject({ ...listQuery, archived: formBoolean.optional() });

export const MessageCreate = z.strictObject({
  text: multilineText(4000),
  sender: z.enum(['user', 'contact']).optional(),
});

export const MessageListQuery = z.strictObject(listQuery);
export type ListQuery = z.output<typeof MessageListQuery>;
