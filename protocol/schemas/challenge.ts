import * as z from 'zod/mini';
import { CHALLENGE_CANCEL_TYPE, CHALLENGE_MESSAGE_TYPE } from '../runtime/challenge-types.ts';

/**
 * The 3-D Secure challenge page and the SDK's dialog speak over a MessageChannel, never on a window:
 * each challenge document posts `ready` (its fragment's uuid only) to its parent; the SDK answers
 * with `init` (the same uuid) and port2 of a fresh channel, to the service origin only; the page
 * accepts exactly one init per document, from its parent and one of the merchant's origins.
 */
export { CHALLENGE_CANCEL_TYPE, CHALLENGE_INIT_TYPE, CHALLENGE_MESSAGE_TYPE, CHALLENGE_READY_TYPE } from '../runtime/challenge-types.ts';

/** What the challenge page sends on the port: the transaction id and the outcome, never a secret. */
export const ChallengeMessage = z.object({
  type: z.literal(CHALLENGE_MESSAGE_TYPE),
  transaction_id: z.string(),
  status: z.enum(['completed', 'failed']),
});
export type ChallengeMessage = z.infer<typeof ChallengeMessage>;

/**
 * What the challenge page sends on the port when the shopper presses Escape inside it (the page is another
 * origin, so the SDK's dialog never sees that key): the SDK cancels the challenge as for its own Escape.
 */
export const ChallengeCancel = z.object({ type: z.literal(CHALLENGE_CANCEL_TYPE), transaction_id: z.string() });
export type ChallengeCancel = z.infer<typeof ChallengeCancel>;
