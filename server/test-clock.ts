import { ManualClock, systemClock, type Clock } from './clock.ts';

/**
 * CPE_TEST_CLOCK, for tests of timing rules against the whole service process (a pending refund
 * fails five seconds later), through restarts and kill -9: the service's clock stands still at the
 * time given, and the process that started it (over the IPC channel Node gives a child spawned with
 * one: testkit/processes.ts `moveClock`) moves it. Each move is answered once the refund settlement
 * job has made a whole pass at the new time, so that what is due by then has settled, and nothing
 * else has. Ids still carry the real time: their order only needs to grow.
 */
export interface ClockMove {
  type: 'cpe:move-clock';
  /** Told back in the answer, so that each answer is found among every message the child sent. */
  id: number;
  seconds: number;
}

export interface ClockMoved {
  type: 'cpe:clock-moved';
  id: number;
  /** The service's time now, in Unix seconds. */
  now: number;
}

export const isClockMove = (message: unknown): message is ClockMove => (message as ClockMove | undefined)?.type === 'cpe:move-clock';
export const isClockMoved = (message: unknown): message is ClockMoved => (message as ClockMoved | undefined)?.type === 'cpe:clock-moved';

/** The service's clock: the system's, or with CPE_TEST_CLOCK (`testClock`) a ManualClock at that time. */
export const configuredClock = (testClock: number | undefined): Clock => (testClock === undefined ? systemClock : new ManualClock(testClock));

/** Moves `clock` as the parent process says, each answered after a settlement pass (`settle`). */
export function obeyClockMoves(clock: ManualClock, settle: () => Promise<void>): void {
  process.on('message', async (message) => {
    if (!isClockMove(message)) return;
    clock.advance(message.seconds);
    await settle();
    process.send?.({ type: 'cpe:clock-moved', id: message.id, now: clock.now() } satisfies ClockMoved);
  });
}
