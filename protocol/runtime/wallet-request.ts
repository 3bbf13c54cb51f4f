import { WalletRequest as WalletRequestGuard } from './guards.ts';
import { conforms } from './json-guard.ts';
import type { WalletRequest } from '../schemas/wallet.ts';

// The wallet sheet's reader of its `r` parameter (wallet.ts encodes it), with the generated guard: no zod in the frames.

/** The WalletRequest of an `r` parameter, or undefined when it is not one. */
export function decodeWalletRequest(r: string): WalletRequest | undefined {
  try {
    const binary = atob(r.replace(/-/g, '+').replace(/_/g, '/'));
    const request: unknown = JSON.parse(new TextDecoder().decode(Uint8Array.from(binary, (c) => c.charCodeAt(0))));
    return conforms(WalletRequestGuard, request) ? request : undefined;
  } catch {
    return undefined;
  }
}
