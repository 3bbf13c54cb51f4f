/**
 * The one time scale of the tests and benchmarks. `CPE_TEST_TIME_SCALE` (default 1) multiplies every
 * timeout, so a slow or loaded machine is given more time by one variable, not by editing tests:
 * `CPE_TEST_TIME_SCALE=3 npm test`. It scales how long a test may wait, never how long it waits: a
 * test awaits the event, message, element or line it needs (see wait.ts), and timing rules are
 * tested on a controllable clock (node:test's `mock.timers`, Playwright's `page.clock`).
 *
 * Works in Node and in the browser (web-test-runner sets `globalThis.__cpeTestTimeScale` from the
 * same variable: web-test-runner.config.mjs).
 */
const raw =
  (globalThis as { process?: { env: Record<string, string | undefined> } }).process?.env.CPE_TEST_TIME_SCALE ??
  (globalThis as { __cpeTestTimeScale?: string | number }).__cpeTestTimeScale;

export const TIME_SCALE = parseScale(raw);

function parseScale(value: string | number | undefined): number {
  if (value === undefined || value === '') return 1;
  const scale = Number(value);
  if (!Number.isFinite(scale) || scale <= 0) throw new Error(`CPE_TEST_TIME_SCALE is a positive number (1, 2, 0.5…), got '${value}'.`);
  return scale;
}

/** `ms` times the time scale: every timeout of a test or benchmark goes through this. */
export const scaled = (ms: number): number => Math.round(ms * TIME_SCALE);
