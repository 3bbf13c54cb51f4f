/**
 * Seeded randomness for the crash and chaos tests: a run is replayed by its seed. The seed is
 * `CPE_TEST_SEED` when set, else a new one; either way it is printed (on stderr, with the command
 * that replays it) before the test uses it, so a failure's log always says how to reproduce it.
 */
export interface Seeded {
  seed: number;
  /** In [0, 1), like Math.random. */
  next(): number;
  /** A whole number in [min, max]. */
  int(min: number, max: number): number;
}

export function seeded(what: string): Seeded {
  const given = process.env.CPE_TEST_SEED;
  const seed = given ? Number(given) >>> 0 : (Math.random() * 2 ** 32) >>> 0;
  if (given && String(seed) !== given.trim()) throw new Error(`CPE_TEST_SEED is a whole number below 2^32, got '${given}'.`);
  process.stderr.write(`${what}: seed ${seed} (replay: CPE_TEST_SEED=${seed})\n`);
  // mulberry32: small, fast, and good enough to choose kill points.
  let state = seed;
  const next = () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 2 ** 32;
  };
  return { seed, next, int: (min, max) => min + Math.floor(next() * (max - min + 1)) };
}
