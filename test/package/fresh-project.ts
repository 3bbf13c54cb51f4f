import assert from 'node:assert/strict';
import { execFile, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import type { Server } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Browser, Page } from 'playwright-core';
import { ensureBuilt } from '../../scripts/ensure-built.mjs';
import { handSocket, spawnNode } from '../../testkit/processes.ts';
import { scaled } from '../../testkit/time.ts';

/**
 * What a merchant does with the package: `npm pack` here, then `npm install <tarball>` into a new
 * project in a temporary folder, from the registry through npm's cache (`--prefer-offline`: the
 * versions this repo installed are in the cache, so it works offline once they were fetched).
 */
export const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';

/** The version of a package this repo installed (so a fresh project takes it from the cache). */
export const versionOf = (name: string): string => JSON.parse(readFileSync(join(root, 'node_modules', name, 'package.json'), 'utf8')).version;

/** Runs a command to its end; its output in the failure message. No TypeScript loader is passed on. */
export function sh(command: string, args: string[], cwd: string, env: Record<string, string> = {}): string {
  const run = spawnSync(command, args, { cwd, encoding: 'utf8', env: { ...process.env, NODE_OPTIONS: '', ...env }, timeout: scaled(180_000) });
  assert.equal(run.status, 0, `${command} ${args.join(' ')} failed (${run.status ?? run.signal}):\n${run.stdout}\n${run.stderr}`);
  return run.stdout;
}

/** `sh` without blocking this process (whose in-process service the command may be talking to). */
export function shAsync(command: string, args: string[], cwd: string, env: Record<string, string> = {}): Promise<string> {
  return new Promise((resolve, reject) =>
    execFile(command, args, { cwd, encoding: 'utf8', env: { ...process.env, NODE_OPTIONS: '', ...env }, timeout: scaled(180_000), maxBuffer: 16 << 20 }, (error, stdout, stderr) =>
      error ? reject(new Error(`${command} ${args.join(' ')} failed (${error.code ?? error.signal}):\n${stdout}\n${stderr}`)) : resolve(stdout),
    ),
  );
}

/** `npm pack` of this repo (built first when a source is newer), into a temporary folder; its path. */
export function packTarball(into: string): string {
  assert.ok(ensureBuilt({ quiet: true }), 'dist/ is missing after vite build');
  // Built already: the prepack script (npm run build) would only build again.
  const [packed] = JSON.parse(sh(npm, ['pack', '--ignore-scripts', '--json', '--pack-destination', into, '--loglevel=error'], root)) as { filename: string }[];
  return join(into, packed!.filename);
}

/** A new project (`type: module`) with the tarball and `packages` installed; its folder. */
export function freshProject(parent: string, name: string, tarball: string, packages: string[] = []): string {
  const dir = join(parent, name);
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'package.json'), JSON.stringify({ name, private: true, type: 'module' }, null, 2));
  sh(npm, ['install', tarball, ...packages, '--prefer-offline', '--no-audit', '--no-fund', '--loglevel=error'], dir);
  return dir;
}

/** The top-level packages of a project's node_modules (scoped ones as `@scope/name`). */
export function installed(dir: string): string[] {
  const modules = join(dir, 'node_modules');
  return readdirSync(modules)
    .filter((entry) => !entry.startsWith('.'))
    .flatMap((entry) => (entry.startsWith('@') ? readdirSync(join(modules, entry)).map((scoped) => `${entry}/${scoped}`) : [entry]))
    .sort();
}

/** Writes files (path → text) under `dir`. */
export function write(dir: string, files: Record<string, string>): void {
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, path)), { recursive: true });
    writeFileSync(join(dir, path), text);
  }
}

/** A temporary folder, removed by the returned function. */
export function temporary(prefix: string): { dir: string; remove(): void } {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  return { dir, remove: () => rmSync(dir, { recursive: true, force: true }) };
}

/**
 * Starts a plain `node` process on `socket` (bound by the caller on port 0: testkit's boundSocket,
 * so the page's origin, and its merchant, are known before the process starts) and resolves once it
 * prints `listening`.
 */
export async function start(script: string, cwd: string, env: Record<string, string>, socket: Server): Promise<{ child: ChildProcess; output: () => string; stop(): void }> {
  const child = spawnNode(script, [script], { cwd, env: { NODE_OPTIONS: '', ...env } });
  await handSocket(child.proc, socket);
  await child.line(/^listening$/);
  return { child: child.proc, output: () => child.output(), stop: () => void child.proc.kill() };
}

/**
 * A shop's backend on plain Node with `cpe/server`, serving a built app from `dist/`: `POST
 * /api/intent` (createServerIntent's route), the middleware routes under `/api/cpe` (cpeNodeHandler,
 * for the intent it made only), `POST /api/verify` (the backend's check before it fulfils).
 * Environment: SERVICE_URL, LICENCE_KEY, MERCHANT_ID; it serves on the socket its parent hands it
 * (testkit's handSocket) and prints `listening` then.
 */
export const SHOP_BACKEND = `
import { createServer } from 'node:http';
import { readFile } from 'node:fs/promises';
import { extname, join } from 'node:path';
import { CpeClient, cpeNodeHandler, toSession } from 'cpe/server';

const { SERVICE_URL, LICENCE_KEY, MERCHANT_ID } = process.env;
const cpe = new CpeClient({ licenceKey: LICENCE_KEY, baseUrl: SERVICE_URL });
let intent; // one shopper in this test: the intent this backend made for it
const routes = cpeNodeHandler({ client: cpe, prefix: '/api/cpe', allowIntent: (req, id) => id === intent });
const types = { '.html': 'text/html', '.js': 'text/javascript', '.css': 'text/css' };

const server = createServer(async (req, res) => {
  const json = (body) => (res.writeHead(200, { 'content-type': 'application/json' }), res.end(JSON.stringify(body)));
  if (req.method === 'POST' && req.url === '/api/intent') {
    const created = await cpe.createPaymentIntent({ merchantid: Number(MERCHANT_ID), amount: 1234, currency: 'GBP', identifier: 'react-order-1' });
    intent = created.paymentIntentId;
    return json(toSession(created));
  }
  if (req.method === 'POST' && req.url === '/api/verify') return json(await cpe.verify({ payment_intent_id: intent, unmask_fields: [] }));
  if (req.method === 'GET' && req.url === '/api/intent-id') return json({ id: intent });
  return routes(req, res, async () => {
    const path = join('dist', req.url === '/' ? 'index.html' : req.url.split('?')[0]);
    try {
      const body = await readFile(path);
      res.writeHead(200, { 'content-type': types[extname(path)] ?? 'application/octet-stream' });
      res.end(body);
    } catch {
      res.writeHead(404).end();
    }
  });
});
process.once('message', (_, socket) => server.listen(socket, () => console.log('listening')));
`;

/** A new page of `browser` at `url`: `problems` collects page errors, console errors and every `cpe:error` event. */
export async function openShop(browser: Browser, url: string): Promise<{ page: Page; problems: string[]; close(): Promise<void> }> {
  const context = await browser.newContext();
  await context.addInitScript('document.addEventListener("cpe:error", (e) => console.error("cpe:error " + e.detail.message))');
  const page = await context.newPage();
  const problems: string[] = [];
  page.on('pageerror', (error) => problems.push(error.message));
  page.on('console', (message) => message.type() === 'error' && problems.push(message.text()));
  await page.goto(url);
  return { page, problems, close: () => context.close() };
}

/** Types the test Visa into the page's `<cpe-card>` frame as a shopper does. */
export async function typeCard(page: Page, frame = 'cpe-card iframe'): Promise<void> {
  const form = page.frameLocator(frame);
  await form.getByLabel('Card number').pressSequentially('4242424242424242');
  await form.getByLabel('Expiry date').pressSequentially('1230');
  await form.getByLabel('Security code').pressSequentially('123');
  await form.getByLabel('Name on card').fill('Ada Lovelace');
}

