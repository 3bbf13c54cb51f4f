/** The challenge messages' types: the zod-free part of the challenge protocol (its schemas: protocol/schemas/challenge.ts), for the merchant-side SDK. */
export const CHALLENGE_READY_TYPE = 'cpe:3ds:ready';
export const CHALLENGE_INIT_TYPE = 'cpe:3ds:init';
export const CHALLENGE_MESSAGE_TYPE = 'cpe:3ds:result';
export const CHALLENGE_CANCEL_TYPE = 'cpe:3ds:cancel';
