import * as z from 'zod/mini';

/**
 * What the service's 3-D Secure challenge page posts to the window that frames (or opened) it, and
 * only to the merchant's origins: the transaction id and the outcome, never a secret.
 */
export const CHALLENGE_MESSAGE_TYPE = 'cpe:3ds:result';
export const ChallengeMessage = z.object({
  type: z.literal(CHALLENGE_MESSAGE_TYPE),
  transaction_id: z.string(),
  status: z.enum(['completed', 'failed']),
});
export type ChallengeMessage = z.infer<typeof ChallengeMessage>;

/**
 * What the challenge page posts when the shopper presses Escape inside it (the page is another
 * origin, so the SDK's dialog never sees that key): the SDK cancels the challenge as for its own Escape.
 */
export const CHALLENGE_CANCEL_TYPE = 'cpe:3ds:cancel';
export const ChallengeCancel = z.object({ type: z.literal(CHALLENGE_CANCEL_TYPE), transaction_id: z.string() });
export type ChallengeCancel = z.infer<typeof ChallengeCancel>;
