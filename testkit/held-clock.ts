/**
 * Preloaded into a service child (`--import`, by startServiceChild's `clock` option): the service's
 * clock (server/clock.ts's systemClock, through which every service reads the time) holds still at
 * CPE_TEST_CLOCK (Unix seconds) and moves only when the parent says so over the IPC channel, so that
 * a test of a timing rule (a pending refund fails five seconds later) runs against the real process,
 * through restarts and kill -9, without waiting on the wall clock. A restarted child is given the
 * time its parent last set. Ids still carry the real time: their order needs only to grow.
 *
 * The answer to a move comes once the refund settlement job (its pass every second) has made a whole
 * pass that began at the new time: by then everything due has settled, and what has not is not due.
 */
import { systemClock } from '../server/clock.ts';
import { PaymentsService } from '../server/payments/payments-service.ts';
import { isClockMove, type ClockMoved } from './clock-messages.ts';

let now = Number(process.env.CPE_TEST_CLOCK);
if (!Number.isSafeInteger(now)) throw new Error(`CPE_TEST_CLOCK is Unix seconds, got '${process.env.CPE_TEST_CLOCK}'`);
systemClock.now = () => now;

/** Moves so far; and the answers waiting for a pass that began after their move. */
let moves = 0;
const waiting: { move: number; answer: () => void }[] = [];

const settle = PaymentsService.prototype.settleDueRefunds;
PaymentsService.prototype.settleDueRefunds = async function (this: PaymentsService) {
  const begunAfter = moves;
  try {
    return await settle.call(this);
  } finally {
    for (const entry of waiting.filter((w) => w.move <= begunAfter)) {
      waiting.splice(waiting.indexOf(entry), 1);
      entry.answer();
    }
  }
};

process.on('message', (message) => {
  if (!isClockMove(message)) return;
  now += message.seconds;
  const time = now;
  waiting.push({ move: ++moves, answer: () => process.send?.({ type: 'cpe:clock-moved', id: message.id, now: time } satisfies ClockMoved) });
});
