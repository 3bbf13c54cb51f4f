import type { Logger } from '../logger.ts';
import { isOutage } from '../store/pg-availability.ts';
import type { PaymentsService } from './payments-service.ts';

/** How often the job looks for pending refunds whose outcome is due. */
export const SETTLE_EVERY_MS = 1_000;

/**
 * The refund settlement job: every second, the outcome of each pending refund due by the service's
 * clock (PaymentsService.settleDueRefunds). What is due is stored with the refund (`settles_at`), not
 * held in a timer, so a restart or a kill -9 loses nothing: the next process settles it on its
 * first pass, and any number of processes may run the job (each refund settles once). Tests drive
 * it with a controllable clock and call settleDueRefunds themselves.
 */
export function startRefundSettlement(payments: Pick<PaymentsService, 'settleDueRefunds'>, logger: Logger, everyMs = SETTLE_EVERY_MS): { passNow(): Promise<void>; stop(): Promise<void> } {
  let running: Promise<unknown> | undefined;
  const pass = () => {
    // One pass at a time: a tick while a slow pass runs is skipped, not queued.
    running ??= payments
      .settleDueRefunds()
      .catch((error: Error) => isOutage(error) || logger.log('error', 'refund settlement failed', { error: error.name, message: error.message }))
      .finally(() => (running = undefined));
  };
  pass();
  const timer = setInterval(pass, everyMs).unref();
  return {
    /** A whole pass that begins after this call (the one under way, if any, ends first). */
    async passNow() {
      await running;
      pass();
      await running;
    },
    async stop() {
      clearInterval(timer);
      await running;
    },
  };
}
