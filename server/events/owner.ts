import type { EventOwnerKind } from '../../api/events.ts';
import { unauthenticated } from '../http/api-error.ts';
import type { AppState } from '../http/app-state.ts';

/**
 * Whose events and webhook endpoints these are: a merchant (its licence key authenticates) or a
 * messaging user (its access token). Stored as one key, so an owner's rows are one index key.
 */
export type Owner = `merchant:${number}` | `user:${string}`;

export const merchantOwner = (merchantId: number): Owner => `merchant:${merchantId}`;
export const userOwner = (userId: string): Owner => `user:${userId}`;
export const ownerKind = (owner: Owner): EventOwnerKind => (owner.startsWith('merchant:') ? 'merchant' : 'user');

/** The owner a request authenticated as (see ownerAuth). */
export function requestOwner(state: AppState): Owner {
  if (state.merchantId !== undefined) return merchantOwner(state.merchantId);
  if (state.userId !== undefined) return userOwner(state.userId);
  throw unauthenticated('Send your licence key or access token as `Authorization: Bearer <key>`.');
}
