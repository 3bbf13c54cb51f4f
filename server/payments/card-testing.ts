import type { Middleware } from 'koa';
import { DEFAULT_TOKENISE_RATE_LIMIT, type Config } from '../config.ts';
import type { AppState } from '../http/app-state.ts';
import { byAddress } from '../http/client-address.ts';
import { rateLimit } from '../http/rate-limit.ts';

/**
 * The card-testing limits of tokenisation, beside each intent's lock after five failed attempts: a
 * script trying stolen numbers is slowed per client address (an IPv6 /64 as one), per session, and
 * per merchant across all its sessions and addresses, so neither many sessions nor many addresses
 * get it further. Built once per app: POST /frames/tokenise and POST /v1/tokens share the
 * merchant's budget.
 */
export interface CardTestingLimits {
  /** Before authentication: every attempt from an address counts, refused or not. */
  perAddress: Middleware<AppState>;
  /** After session authentication. */
  perSession: Middleware<AppState>;
  /** After authentication (session or licence key). */
  perMerchant: Middleware<AppState>;
}

export function cardTestingLimits(config: Pick<Config, 'tokeniseRateLimit'>): CardTestingLimits {
  const limits = { ...DEFAULT_TOKENISE_RATE_LIMIT, ...config.tokeniseRateLimit };
  return {
    perAddress: rateLimit(limits.perIp, byAddress('tokenise-ip')),
    perSession: rateLimit(limits.perSession, (state) => `tokenise:${state.rateKey}`),
    perMerchant: rateLimit(limits.perMerchant ?? DEFAULT_TOKENISE_RATE_LIMIT.perMerchant, (state) => `tokenise-merchant:${state.merchantId}`),
  };
}
