import { z } from 'zod';
import { USERNAME } from './messaging.ts';

/**
 * The CLI's operations inside the running service (`npm run -s token`, `npm run -s merchant` while it
 * runs on the embedded store): reachable only from this machine, with the secret the service wrote to
 * its data folder. Not in the API description.
 */
export const TokenIssue = z.strictObject({ username: z.string().regex(USERNAME, 'expected 1 to 64 letters (of any script), digits, dots, dashes or underscores') });
export const TokenIssued = z.object({ accessToken: z.string() });

export const MerchantCreate = z.strictObject({ origins: z.array(z.string().max(2048)).max(50), name: z.string().max(100).optional() });
export const MerchantCreated = z.object({ merchantId: z.int(), licenceKey: z.string(), publicKey: z.string() });

/** `npm run -s dashboard`: a one-time sign-in link to the dashboard for a merchant (the seeded one unless named). */
export const DashboardLinkCreate = z.strictObject({ merchantId: z.int().positive() });
export const DashboardLinkCreated = z.object({ url: z.string(), merchantId: z.int(), expires_at: z.int() });
