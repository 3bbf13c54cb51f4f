// Where Chromium is and how to launch it, shared by web-test-runner.config.mjs, the e2e harness and
// scripts/ensure-chromium.mjs. No browser is ever downloaded: Debian's `chromium` or CHROME_PATH.
import { accessSync, constants, statSync } from 'node:fs';
import { delimiter, join } from 'node:path';

/** Flags for headless Chromium in containers, as root (see /work/shared/TOOLCHAIN.md). */
export const CHROMIUM_FLAGS = Object.freeze([
  '--no-sandbox',
  '--disable-gpu',
  '--disable-dev-shm-usage',
  '--disable-background-networking',
  '--disable-component-update',
  '--no-first-run',
  '--disable-quic',
  '--disable-sync',
]);

const NAMES = ['chromium', 'chromium-browser', 'google-chrome', 'google-chrome-stable'];

const isExecutable = (path) => {
  try {
    accessSync(path, constants.X_OK);
    return statSync(path).isFile();
  } catch {
    return false;
  }
};

/**
 * The Chromium to use: `CHROME_PATH` when set (and then only it), else the first of /usr/bin/chromium,
 * chromium-browser, google-chrome found on PATH. Undefined when there is none.
 */
export function findChromium(env = process.env) {
  if (env.CHROME_PATH) return isExecutable(env.CHROME_PATH) ? env.CHROME_PATH : undefined;
  const dirs = ['/usr/bin', ...(env.PATH ?? '').split(delimiter).filter(Boolean)];
  for (const name of NAMES) {
    for (const dir of dirs) {
      const candidate = join(dir, name);
      if (isExecutable(candidate)) return candidate;
    }
  }
  return undefined;
}

/** The message that names the fix. */
export function missingChromiumMessage(env = process.env) {
  return env.CHROME_PATH
    ? `CHROME_PATH=${env.CHROME_PATH} is not an executable file. Point CHROME_PATH at a Chromium or Chrome binary.`
    : 'No Chromium found (looked for chromium, chromium-browser, google-chrome). Install one (Debian: apt-get install -y chromium) or set CHROME_PATH to a Chromium or Chrome binary.';
}

/** Like findChromium, but throws with the fix when there is none. */
export function chromiumPath(env = process.env) {
  const found = findChromium(env);
  if (!found) throw new Error(missingChromiumMessage(env));
  return found;
}
