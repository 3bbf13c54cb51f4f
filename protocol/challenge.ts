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
