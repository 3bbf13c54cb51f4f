import * as z from 'zod/mini';
import { CardField } from './bridge.ts';
import { FIELD_CHANNEL_VERSION } from '../runtime/field-channel-name.ts';

export { FIELD_CHANNEL_VERSION, fieldChannelName } from '../runtime/field-channel-name.ts';

/**
 * The channel between the four field frames of one `<cpe-card-fields>` (iframe-app/field/): a
 * `BroadcastChannel` named `fieldChannelName(group)`, where `group` is the uuid in every field
 * frame's address (`&group=`). The frames share the service origin and the top-level page's storage
 * partition, so the channel links them without `window.frames` and without the merchant page: card
 * values travel only here, never through the element. Every message is validated on receipt.
 *
 *   collect  number frame → siblings: "send me your value" (on tokenise), with the detected scheme
 *            (the security code's length depends on it); siblings show their validation messages.
 *   value    sibling → number frame: the answer to one `collect` (same id), the value and whether
 *            the sibling found it valid.
 *   scheme   number frame → siblings whenever the detected scheme changes.
 *   fill     any frame → the named field's frame: a value the browser autofilled into a hidden
 *            input of another frame (Braintree style).
 *   error    number frame → the named field's frame: a refusal from the service to show inline.
 *   reset    any frame → all: clear values and validation.
 */
const v = z.literal(FIELD_CHANNEL_VERSION);

export const Collect = z.object({ cpe: v, type: z.literal('collect'), id: z.string(), scheme: z.string() });
export const FieldValue = z.object({ cpe: v, type: z.literal('value'), id: z.string(), field: CardField, value: z.string().check(z.maxLength(120)), valid: z.boolean() });
export const SchemeChanged = z.object({ cpe: v, type: z.literal('scheme'), scheme: z.string() });
export const Fill = z.object({ cpe: v, type: z.literal('fill'), field: CardField, value: z.string().check(z.maxLength(120)) });
export const FieldError = z.object({ cpe: v, type: z.literal('error'), field: CardField, message: z.string().check(z.maxLength(300)) });
export const Reset = z.object({ cpe: v, type: z.literal('reset') });

export const FieldMessage = z.discriminatedUnion('type', [Collect, FieldValue, SchemeChanged, Fill, FieldError, Reset]);
export type FieldMessage = z.infer<typeof FieldMessage>;
