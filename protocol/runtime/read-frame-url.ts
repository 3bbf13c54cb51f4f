import type { FrameParams } from '../schemas/frame-url.ts';
import { FrameParams as FrameParamsGuard } from './guards.ts';
import { conforms, propertyNames } from './json-guard.ts';
import { UUID } from './patterns.ts';
import { readFragment, type FrameLook } from './frame-address.ts';

/**
 * The frame's own view of its address (frame-address.ts builds it); undefined when it is not a valid
 * frame address. Unknown parameters are dropped. Checked with the guard generated from frame-url.ts's
 * FrameParams (no zod in the frames); apart from frame-address.ts because those schemas import that one.
 */
export function readFrameUrl(location: { search: string; hash: string }): { params: FrameParams; session: string; look: FrameLook } | undefined {
  const query = new URLSearchParams(location.search);
  const params = Object.fromEntries(propertyNames(FrameParamsGuard).flatMap((key) => (query.has(key) ? [[key, query.get(key)]] : [])));
  const { session, look } = readFragment(location.hash);
  if (!conforms(FrameParamsGuard, params) || !UUID.test(session)) return undefined;
  return { params, session, look };
}
