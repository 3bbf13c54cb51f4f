import * as z from 'zod/mini';
import { CHALLENGE_MESSAGE_TYPE } from '../runtime/challenge-types.ts';

/**
 * The 3-D Secure challenge page is a popup of the one page-to-popup channel (protocol/schemas/popup.ts):
 * its documents say ready, take one init with a port, and send their result on that port; Escape
 * inside the page (another origin, whose keys the SDK's dialog never sees) is the channel's close.
 */
export { CHALLENGE_MESSAGE_TYPE } from '../runtime/challenge-types.ts';

/**
 * The challenge's outcome: the transaction id and the outcome, never a secret. The answer page sends
 * it on the port (with the popup's uuid); `Accept: application/json` on the answer gets it as JSON.
 */
export const ChallengeMessage = z.object({
  type: z.literal(CHALLENGE_MESSAGE_TYPE),
  transaction_id: z.string(),
  status: z.enum(['completed', 'failed']),
});
export type ChallengeMessage = z.infer<typeof ChallengeMessage>;

/** What the challenge page's module reads from its page (a JSON data block the service renders). */
export const ChallengePageData = z.object({
  /** The origins whose init the page accepts (the merchant's pages, and the service's own for a page in a hosted frame). */
  origins: z.array(z.string()),
  /** The answer page's outcome, sent once the port came. */
  result: z.optional(ChallengeMessage),
});
export type ChallengePageData = z.infer<typeof ChallengePageData>;
