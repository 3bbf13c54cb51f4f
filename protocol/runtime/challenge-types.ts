/** The challenge's result type: the zod-free part of the challenge protocol (its schema: protocol/schemas/challenge.ts), for the merchant-side SDK. */
export const CHALLENGE_MESSAGE_TYPE = 'cpe:3ds:result';
