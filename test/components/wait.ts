import { waitUntil as openWcWaitUntil } from '@open-wc/testing';
import { scaled } from '../../testkit/time.ts';

/**
 * open-wc's `waitUntil` with a generous default limit (30 s, scaled by CPE_TEST_TIME_SCALE): its own
 * default of one second fails on a busy machine for something that does happen. The browser suites
 * import it from here.
 */
export function waitUntil(predicate: () => unknown, message?: string, options: { interval?: number; timeout?: number } = {}): Promise<void> {
  return openWcWaitUntil(predicate, message, { ...options, timeout: options.timeout ?? scaled(30_000) });
}
