import { randomBytes } from 'node:crypto';
import { closeSync, fstatSync, linkSync, openSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';

const LOCK = 'store.lock';
/** The lock's helper files: a new lock before it is linked in, and the claims on a stale lock's removal. */
const HELPER = /^store\.lock\.(?:(\d+)\.[\w-]+\.tmp|takeover-[\w-]+)$/;

/**
 * An empty lock file younger than this is a lock being made (by an older CPE, which created the file
 * and wrote its pid next): it is waited for, never taken over. One older is abandoned (its maker died
 * in between).
 */
const EMPTY_GRACE_MS = 10_000;
/** How long to wait between looks while another process is part way through making or taking over the lock. */
const RECHECK_MS = 10;
/** How long acquisition keeps looking at a lock that keeps changing before it gives up. */
const GIVE_UP_MS = EMPTY_GRACE_MS + 5_000;

/** Folders this process holds, with how many opens: a test may open one folder twice in one process. */
const held = new Map<string, number>();
/** Acquisitions under way in this process: a second open of the same folder waits for the first. */
const acquiring = new Map<string, Promise<unknown>>();

const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
};

const code = (error: unknown) => (error as NodeJS.ErrnoException).code;

/** One version of the lock file: which file it is (inode and change time) and whose (its pid, or none yet). */
interface Seen {
  id: string;
  owner: number | undefined;
  ageMs: number;
}

/** The lock file as it is now (one open, so its identity and content belong together); undefined if there is none. */
function look(file: string): Seen | undefined {
  let fd: number;
  try {
    fd = openSync(file, 'r');
  } catch (error) {
    if (code(error) === 'ENOENT') return undefined;
    throw error;
  }
  try {
    const stat = fstatSync(fd, { bigint: true });
    const text = readFileSync(fd, 'utf8').trim();
    const owner = /^\d+$/.test(text) ? Number(text) : undefined;
    return { id: `${stat.ino}-${stat.ctimeNs}-${owner ?? 'empty'}`, owner, ageMs: Date.now() - Number(stat.mtimeMs) };
  } finally {
    closeSync(fd);
  }
}

/** Links `from` to `to` unless `to` exists: true if it did. Atomic: `to` appears whole, or not at all. */
function linkNew(from: string, to: string): boolean {
  try {
    linkSync(from, to);
    return true;
  } catch (error) {
    if (code(error) === 'EEXIST') return false;
    throw error;
  }
}

/**
 * The embedded store's claim on its data folder while open: `store.lock` holds the owner's pid. Two
 * processes on one folder would each keep their own copy in memory and lose each other's writes, so
 * a second one is refused, by name; a lock left by a process that is gone (kill -9) is taken over.
 *
 * Every step is atomic, so two processes acquiring at the same instant never both succeed:
 * - The lock is made whole (pid written) under another name, then linked in: `link` fails if the lock
 *   exists, and the lock is never seen empty. An empty one (made by an older CPE, which wrote the pid
 *   after creating the file) is waited for, and taken over only once it is clearly abandoned.
 * - A dead owner's lock is removed only by the process holding the claim on that very file
 *   (`store.lock.takeover-<its identity>`, linked in the same way), after checking again that the lock
 *   is still that file; then the claimant makes its own lock as anyone does, and may still lose that
 *   race. A claim whose holder died is passed on to the next (`…-2`, `…-3`).
 */
export class FolderLock {
  private constructor(private readonly dir: string) {}

  static async acquire(dir: string): Promise<FolderLock> {
    await acquiring.get(dir)?.catch(() => undefined);
    const count = held.get(dir) ?? 0;
    if (count > 0) {
      held.set(dir, count + 1);
      return new FolderLock(dir);
    }
    const acquired = FolderLock.#acquire(dir);
    acquiring.set(dir, acquired);
    try {
      return await acquired;
    } finally {
      if (acquiring.get(dir) === acquired) acquiring.delete(dir);
    }
  }

  static async #acquire(dir: string): Promise<FolderLock> {
    const file = join(dir, LOCK);
    const mine = join(dir, `${LOCK}.${process.pid}.${randomBytes(6).toString('hex')}.tmp`);
    writeFileSync(mine, `${process.pid}\n`, { mode: 0o600 });
    try {
      const deadline = Date.now() + GIVE_UP_MS;
      while (Date.now() < deadline) {
        if (linkNew(mine, file)) {
          held.set(dir, 1);
          removeAbandonedHelpers(dir);
          return new FolderLock(dir);
        }
        const seen = look(file);
        if (!seen) continue; // released meanwhile: try again at once
        if (seen.owner === undefined ? seen.ageMs < EMPTY_GRACE_MS : seen.owner !== process.pid && alive(seen.owner)) {
          if (seen.owner !== undefined)
            throw new Error(
              `The data folder ${dir} is in use by process ${seen.owner} (its lock: ${file}). The embedded store serves one process; ` +
                'to run several processes on one database, set CPE_DATABASE_URL=postgres://… (see docs/operations.md, "PostgreSQL and several processes").',
            );
          await sleep(RECHECK_MS); // being made: its owner writes its pid next
          continue;
        }
        if (!removeIfStill(dir, file, seen, mine)) await sleep(RECHECK_MS);
      }
      throw new Error(`Could not lock the data folder ${dir}: ${file} keeps changing.`);
    } finally {
      rmSync(mine, { force: true });
    }
  }

  release(): void {
    const count = (held.get(this.dir) ?? 1) - 1;
    if (count > 0) {
      held.set(this.dir, count);
      return;
    }
    held.delete(this.dir);
    const file = join(this.dir, LOCK);
    // Only our own lock: a dead owner's is taken over, never a live one's, so this one is still ours.
    if (look(file)?.owner === process.pid) rmSync(file, { force: true });
  }
}

/**
 * Removes the abandoned lock `seen` if it is still the lock file, as the one process holding the claim
 * on it; false when another process holds that claim (it is removing it now).
 */
function removeIfStill(dir: string, file: string, seen: Seen, mine: string): boolean {
  for (let generation = 1; ; generation++) {
    const claim = join(dir, `${LOCK}.takeover-${seen.id}${generation > 1 ? `-${generation}` : ''}`);
    if (!linkNew(mine, claim)) {
      const claimant = look(claim)?.owner;
      if (claimant !== undefined && alive(claimant)) return false;
      continue; // its claimant died part way: the next generation's claim decides
    }
    try {
      // Nobody else may remove this file now: if the lock is still it, move it aside (atomic) and drop it.
      if (look(file)?.id === seen.id) {
        const aside = join(dir, `${LOCK}.takeover-${seen.id}-removed-${process.pid}`);
        renameSync(file, aside);
        rmSync(aside, { force: true });
      }
      return true;
    } finally {
      rmSync(claim, { force: true });
    }
  }
}

/** Helper files of processes that are gone (killed part way): harmless, but not left to pile up. */
function removeAbandonedHelpers(dir: string): void {
  for (const name of readdirSync(dir)) {
    const match = HELPER.exec(name);
    if (!match) continue;
    const owner = match[1] !== undefined ? Number(match[1]) : look(join(dir, name))?.owner;
    if (owner !== process.pid && (owner === undefined || !alive(owner))) rmSync(join(dir, name), { force: true });
  }
}
