import { closeSync, openSync, readFileSync, rmSync, writeSync } from 'node:fs';
import { join } from 'node:path';

const LOCK = 'store.lock';

/** Folders this process holds, with how many opens: a test may open one folder twice in one process. */
const held = new Map<string, number>();

const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
};

/**
 * The embedded store's claim on its data folder while open: `store.lock` holds the owner's pid. Two
 * processes on one folder would each keep their own copy in memory and lose each other's writes, so
 * a second one is refused, by name; a lock left by a process that is gone (kill -9) is taken over.
 */
export class FolderLock {
  private constructor(private readonly dir: string) {}

  static acquire(dir: string): FolderLock {
    const file = join(dir, LOCK);
    const count = held.get(dir) ?? 0;
    if (count > 0) {
      held.set(dir, count + 1);
      return new FolderLock(dir);
    }
    for (let attempt = 0; attempt < 3; attempt++) {
      try {
        const fd = openSync(file, 'wx', 0o600);
        writeSync(fd, `${process.pid}\n`);
        closeSync(fd);
        held.set(dir, 1);
        return new FolderLock(dir);
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      }
      let owner = NaN;
      try {
        owner = Number(readFileSync(file, 'utf8').trim());
      } catch {
        continue; // removed meanwhile: try again
      }
      if (Number.isInteger(owner) && owner > 0 && owner !== process.pid && alive(owner))
        throw new Error(
          `The data folder ${dir} is in use by process ${owner} (its lock: ${file}). The embedded store serves one process; ` +
            'to run several processes on one database, set CPE_DATABASE_URL=postgres://… (see the README, "Several processes").',
        );
      rmSync(file, { force: true }); // its owner is gone
    }
    throw new Error(`Could not lock the data folder ${dir}: ${file} keeps changing.`);
  }

  release(): void {
    const count = (held.get(this.dir) ?? 1) - 1;
    if (count > 0) {
      held.set(this.dir, count);
      return;
    }
    held.delete(this.dir);
    const file = join(this.dir, LOCK);
    try {
      if (Number(readFileSync(file, 'utf8').trim()) === process.pid) rmSync(file, { force: true });
    } catch {
      // already gone
    }
  }
}
