import type { RateBuckets } from '../store/store.ts';

/** What middleware learns about a request, read by the handlers after it. */
export interface AppState {
  /** The engine's rate budgets when shared by all its processes (see rate-limit.ts). */
  rateBuckets?: RateBuckets;
  requestId: string;
  /** The messaging user of a valid access token. */
  userId?: string;
  /** The merchant of a valid licence key (backend) or public key + session (browser). */
  merchantId?: number;
  /** The key the rate limiter counts against. */
  rateKey?: string;
}
