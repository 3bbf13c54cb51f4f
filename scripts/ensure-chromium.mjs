#!/usr/bin/env node
// Makes sure a Chromium is available for the browser tests. Found: exits 0. Missing, as root with
// apt-get (a fresh Debian/Ubuntu machine or CI container): installs Debian's `chromium`. Otherwise
// exits 1 with a message naming the fix (CHROME_PATH).
import { spawnSync } from 'node:child_process';
import { findChromium, missingChromiumMessage } from './chromium-path.mjs';

const quiet = process.argv.includes('--quiet') || process.env.npm_config_loglevel === 'silent';
const found = findChromium();
if (found) {
  if (!quiet) process.stderr.write(`Chromium: ${found}\n`);
  process.exit(0);
}

const isRoot = typeof process.getuid === 'function' && process.getuid() === 0;
const hasApt = spawnSync('sh', ['-c', 'command -v apt-get'], { stdio: 'ignore' }).status === 0;
if (!process.env.CHROME_PATH && isRoot && hasApt) {
  process.stderr.write('No Chromium found: installing Debian\'s chromium with apt-get (about 20 s)…\n');
  const install = spawnSync('sh', ['-c', 'apt-get update && apt-get install -y chromium'], {
    stdio: ['ignore', 'inherit', 'inherit'],
    env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' },
  });
  const installed = findChromium();
  if (install.status === 0 && installed) {
    process.stderr.write(`Chromium: ${installed}\n`);
    process.exit(0);
  }
  process.stderr.write('apt-get could not install chromium.\n');
}

process.stderr.write(`${missingChromiumMessage()}\n`);
process.exit(1);
