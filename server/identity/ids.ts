/**
 * The sort position an id carries. A server-assigned id is `<prefix>_` then nine base62 characters of
 * position (milliseconds since 1970 times 1024, plus a counter, so strictly increasing within a
 * process even within one millisecond) then sixteen random characters. A list is ordered by position,
 * so a cursor is decoded to its place in the list with no row needed: a deleted cursor keeps working
 * across restarts and engines, with no memory of deletes. Ids made before positions (prefix and
 * sixteen random characters) carry none; the store orders those rows by their insertion sequence,
 * before every row whose id carries a position.
 */
const ALPHABET = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
const DIGIT = new Map([...ALPHABET].map((c, i) => [c, i]));
export const POSITION_CHARS = 9;
const RANDOM_CHARS = 16;
const PER_MS = 1024;

let last = 0;

/** The next position: now, or one past the last issued when the clock has not moved (or went back). */
export function nextPosition(): number {
  const now = Date.now() * PER_MS;
  last = now > last ? now : last + 1;
  return last;
}

/** Positions issued from now on are above `floor` (a store calls this with the highest it holds). */
export function advancePositions(floor: number): void {
  if (floor > last) last = floor;
}

/** Nine base62 characters; ASCII order of the text is numeric order. */
export function encodePosition(position: number): string {
  let text = '';
  for (let i = 0, rest = position; i < POSITION_CHARS; i++, rest = Math.floor(rest / 62)) text = ALPHABET[rest % 62] + text;
  return text;
}

/** The position an id carries, or undefined for an id without one (older ids, or not one of ours). */
export function idPosition(id: string): number | undefined {
  const at = id.indexOf('_');
  if (at < 1 || id.length - at - 1 !== POSITION_CHARS + RANDOM_CHARS) return undefined;
  let position = 0;
  for (let i = at + 1; i <= at + POSITION_CHARS; i++) {
    const digit = DIGIT.get(id[i]);
    if (digit === undefined) return undefined;
    position = position * 62 + digit;
  }
  return Number.isSafeInteger(position) ? position : undefined;
}

/** The shape of the ids made before positions: a lowercase prefix, `_`, sixteen letters and digits. */
export const isUnpositionedId = (id: string): boolean => /^[a-z]+_[A-Za-z0-9]{16}$/.test(id);

/** `<prefix>_<position><random>`: `random` is sixteen letters and digits. */
export function positionedId(prefix: string, random: string): string {
  if (random.length !== RANDOM_CHARS) throw new Error(`an id takes ${RANDOM_CHARS} random characters`);
  return `${prefix}_${encodePosition(nextPosition())}${random}`;
}
