#!/usr/bin/env node
// Builds the browser code (`vite build`: dist/sdk, dist/frames, dist/dashboard) when it is missing or older than
// its sources. Used by `npm start` (so a fresh clone serves /sdk/cpe.js) and by the e2e harness.
// Without Vite (a production install with --omit=dev) it only warns: the service then answers
// /sdk/cpe.js with a 503 that says to run `npm run build`.
import { spawnSync } from 'node:child_process';
import { existsSync, linkSync, mkdirSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const SOURCES = ['components', 'protocol', 'iframe-app', 'dashboard', 'client', 'api', 'react', 'vite.config.ts', 'scripts/vite-inline-frame.ts', 'scripts/vite-package.ts', 'package-lock.json'];
export const SDK_FILE = join(root, 'dist/sdk/cpe.js');

function newestMtime(path) {
  if (!existsSync(path)) return 0;
  const info = statSync(path);
  if (!info.isDirectory()) return info.mtimeMs;
  let newest = 0;
  for (const item of readdirSync(path)) newest = Math.max(newest, newestMtime(join(path, item)));
  return newest;
}

/** True when dist/sdk/cpe.js is missing or a source is newer than it. */
export function isStale() {
  if (!existsSync(SDK_FILE)) return true;
  const built = statSync(SDK_FILE).mtimeMs;
  return SOURCES.some((source) => newestMtime(join(root, source)) > built);
}

// A file holding the holder's pid (named apart from the folder `build.lock` that earlier versions left).
const LOCK = join(root, '.tmp', 'build-lock');
const pause = (ms) => Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
const alive = (pid) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return error.code === 'EPERM';
  }
};

/** Links `from` to `to` unless `to` exists: true if it did. `to` appears whole (pid written) or not at all. */
function linkNew(from, to) {
  try {
    linkSync(from, to);
    return true;
  } catch (error) {
    if (error.code === 'EEXIST') return false;
    throw error;
  }
}

/** The pid in a lock or claim file; 0 when there is none. */
function ownerOf(file) {
  try {
    return Number(readFileSync(file, 'utf8')) || 0;
  } catch (error) {
    if (error.code === 'ENOENT') return 0;
    throw error;
  }
}

/**
 * Removes `lock` if it still belongs to `owner`, a process that has gone. Two waiters can both see
 * the dead owner; were both to remove the lock, the second would remove the lock a third process
 * made meanwhile. So only the holder of the claim on that owner's lock (`<lock>.takeover-<owner>`,
 * made whole and linked in like the lock) removes it, and only after looking again. A claim whose
 * holder died is passed on (`…-2`, `…-3`).
 */
export function takeOver(lock, owner) {
  const mine = `${lock}.${process.pid}.claim`;
  writeFileSync(mine, String(process.pid));
  try {
    for (let n = 1; ; n++) {
      const claim = `${lock}.takeover-${owner}${n > 1 ? `-${n}` : ''}`;
      if (linkNew(mine, claim)) {
        try {
          if (ownerOf(lock) === owner) rmSync(lock, { force: true });
        } finally {
          rmSync(claim, { force: true });
        }
        return;
      }
      const claimant = ownerOf(claim);
      // Another waiter is taking it over (or has just done so): let it.
      if (!claimant || alive(claimant)) return;
    }
  } finally {
    rmSync(mine, { force: true });
  }
}

/**
 * Runs `build` holding a lock shared by every process of this checkout: test files run two at a
 * time, and two `vite build`s at once empty each other's dist/ (a frame page then names an asset
 * that is gone). A lock whose process has gone is taken over (`takeOver`).
 */
export function locked(build, lock = LOCK) {
  mkdirSync(dirname(lock), { recursive: true });
  const mine = `${lock}.${process.pid}.tmp`;
  writeFileSync(mine, String(process.pid));
  try {
    while (!linkNew(mine, lock)) {
      const owner = ownerOf(lock);
      if (owner && !alive(owner)) takeOver(lock, owner);
      else pause(100);
    }
  } finally {
    rmSync(mine, { force: true });
  }
  try {
    return build();
  } finally {
    rmSync(lock, { force: true });
  }
}

/** Runs `vite build` if stale (once, whatever the number of processes asking); returns whether the SDK file exists afterwards. */
export function ensureBuilt({ quiet = false } = {}) {
  if (!isStale()) return true;
  const vite = join(root, 'node_modules/vite/bin/vite.js');
  if (!existsSync(vite)) {
    process.stderr.write('Vite is not installed, so the browser SDK cannot be built: /sdk/cpe.js will answer 503 until `npm install && npm run build`.\n');
    return existsSync(SDK_FILE);
  }
  return locked(() => {
    // Another process may have built it while this one waited.
    if (!isStale()) return true;
    if (!quiet) process.stderr.write('Building the browser SDK (vite build)…\n');
    const result = spawnSync(process.execPath, [vite, 'build', '--logLevel', quiet ? 'error' : 'warn'], { cwd: root, stdio: ['ignore', 'inherit', 'inherit'] });
    if (result.status !== 0) throw new Error(`vite build failed (exit ${result.status}).`);
    return existsSync(SDK_FILE);
  });
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  try {
    ensureBuilt();
  } catch (error) {
    // `npm start` still starts the service: an older build keeps being served, or /sdk/cpe.js answers 503.
    process.stderr.write(`${error.message} Starting anyway${existsSync(SDK_FILE) ? ' with the previous build' : ''}.\n`);
  }
}
