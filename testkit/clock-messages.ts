/** What a parent and a service child on a held clock (held-clock.ts) say to each other. */
export interface ClockMove {
  type: 'cpe:move-clock';
  /** Told back in the answer, so each answer is found among all the messages the child sent. */
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
