/**
 * The patterns the SDK, the frames, the schemas and the service share: one definition each.
 */

/** A BCP 47 language tag as the elements take it and the frames and service read it: `en`, `pt-BR`, `zh-Hant-TW`. */
export const LANGUAGE_TAG = /^[a-zA-Z]{2,3}(-[a-zA-Z0-9]{2,8})*$/;
/** The longest language tag the service and the dialogs' texts take. */
export const LANGUAGE_TAG_MAX_LENGTH = 35;

/** A uuid as the SDK makes them (`crypto.randomUUID()`): a frame's session (its address's fragment), a field group. */
export const UUID = /^[0-9a-f-]{36}$/;
