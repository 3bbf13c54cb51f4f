/**
 * Child processes of the tests and benchmarks: Node children that are tracked (so none outlives
 * its parent) and heard (every line and IPC message they send can be awaited), the service started
 * as `npm start` runs it, and stopping them.
 *
 * Ports: every child binds port 0 and reports the port it got; nothing picks a port to bind later
 * (another child could take it meanwhile). The service reports on its IPC channel
 * (`{type: 'cpe:listening', serviceUrl, demoUrl}`, scripts/start.ts); a child that cannot bind port 0
 * itself is handed a socket its parent bound (`boundSocket`, `handSocket`); a third-party server that
 * prints the address it bound is read from its output (`child.line`).
 */
import { spawn, spawnSync, type ChildProcess, type SpawnSyncReturns } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { join } from 'node:path';
import { CLI_SCRIPT } from '../scripts/build-tests.mjs';
import { isClockMoved, type ClockMove, type ClockMoved } from '../server/test-clock.ts';
import { scaled } from './time.ts';
import { TimeoutError } from './wait.ts';

/** Every child started here and not yet exited, so that any exit path can end them. */
const children = new Set<ChildProcess>();

export interface Child {
  name: string;
  proc: ChildProcess;
  /** The last `bytes` (default 8 KB) of its stdout and stderr, for an error message. */
  output(bytes?: number): string;
  /**
   * The first line of stdout or stderr matching `pattern`: every line is tested as it arrives (none
   * is missed), and the lines kept so far (`keepBytes`) are tested first. Rejects if the child exits
   * without it, or after `timeoutMs` (scaled; default 60 s).
   */
  line(pattern: RegExp, timeoutMs?: number): Promise<RegExpExecArray>;
  /** The first IPC message for which `test` is true (any message sent since the start counts). */
  message<T>(test: (message: unknown) => message is T, what: string, timeoutMs?: number): Promise<T>;
  /** Resolves once it has exited. */
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

/** True until the process has exited or been ended by a signal. */
export const alive = (proc: ChildProcess) => proc.exitCode === null && proc.signalCode === null;

/**
 * `node <args>` (this Node binary) with `env` over this process's environment and an IPC channel,
 * tracked until it exits. `keepBytes` (default 1 MB) of its output are kept for `output()` and
 * for `line()` calls made after the line arrived.
 */
export function spawnNode(name: string, args: string[], options: { cwd: string; env?: NodeJS.ProcessEnv; keepBytes?: number }): Child {
  const keepBytes = options.keepBytes ?? 1024 * 1024;
  const proc = spawn(process.execPath, args, {
    cwd: options.cwd,
    env: { ...process.env, ...options.env },
    stdio: ['ignore', 'pipe', 'pipe', 'ipc'],
  });
  children.add(proc);
  proc.once('exit', () => children.delete(proc));
  // 'close' comes after 'exit' and after its output has been read to the end, so no line is lost.
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    proc.once('close', (code, signal) => resolve({ code, signal })),
  );
  // Kept output (whole lines), and the waiters that hear every new line.
  let kept = '';
  const lineWaiters = new Set<(line: string) => void>();
  const partial = { stdout: '', stderr: '' };
  const hear = (stream: 'stdout' | 'stderr') => (chunk: Buffer) => {
    const text = partial[stream] + chunk.toString();
    const lines = text.split('\n');
    partial[stream] = lines.pop()!;
    for (const line of lines) {
      kept += `${line}\n`;
      for (const waiter of lineWaiters) waiter(line);
    }
    if (kept.length > keepBytes * 2) kept = kept.slice(-keepBytes);
  };
  for (const stream of ['stdout', 'stderr'] as const) {
    const listen = hear(stream);
    proc[stream]!.on('data', listen);
    // A last line without its newline is a line too.
    proc[stream]!.once('end', () => partial[stream] && listen(Buffer.from('\n')));
  }
  const messages: unknown[] = [];
  const messageWaiters = new Set<(message: unknown) => void>();
  proc.on('message', (message) => {
    messages.push(message);
    for (const waiter of messageWaiters) waiter(message);
  });
  const output = (bytes = 8_000) => (kept + partial.stdout + partial.stderr).slice(-bytes);

  /** Resolves when `offer` accepts something, rejects on exit or at the deadline. */
  function until<T>(what: string, timeoutMs: number, subscribe: (offer: (value: T | undefined) => void) => () => void): Promise<T> {
    const limit = scaled(timeoutMs);
    return new Promise<T>((resolve, reject) => {
      let settled = false;
      let unsubscribe: (() => void) | undefined;
      const settle = (finish: () => void) => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        unsubscribe?.();
        finish();
      };
      const timer = setTimeout(() => settle(() => reject(new TimeoutError(`${name}: ${what} not within ${limit} ms:\n${output()}`))), limit);
      unsubscribe = subscribe((value) => value !== undefined && settle(() => resolve(value)));
      if (settled) unsubscribe();
      void exited.then(({ code, signal }) => settle(() => reject(new Error(`${name} exited (${signal ?? code}) before ${what}:\n${output()}`))));
    });
  }

  return {
    name,
    proc,
    output,
    exited,
    line: (pattern, timeoutMs = 60_000) =>
      until(`a line matching ${pattern}`, timeoutMs, (offer) => {
        for (const line of kept.split('\n')) offer(pattern.exec(line) ?? undefined);
        const waiter = (line: string) => offer(pattern.exec(line) ?? undefined);
        lineWaiters.add(waiter);
        return () => lineWaiters.delete(waiter);
      }),
    message: <T>(test: (message: unknown) => message is T, what: string, timeoutMs = 60_000) =>
      until<T>(what, timeoutMs, (offer) => {
        for (const message of messages) if (test(message)) offer(message);
        const waiter = (message: unknown) => test(message) && offer(message);
        messageWaiters.add(waiter);
        return () => messageWaiters.delete(waiter);
      }),
  };
}

/** What scripts/start.ts sends its parent once the service and the demo merchant serve. */
/**
 * A service child's environment for a long run from one address (a benchmark, a model suite): no rate
 * limits (they would throttle it), warnings only in the log.
 */
export const UNLIMITED = {
  CPE_RATE_LIMIT: '0',
  CPE_TOKENISE_RATE_PER_IP: '0',
  CPE_TOKENISE_RATE_PER_SESSION: '0',
  CPE_TOKENISE_RATE_PER_MERCHANT: '0',
  CPE_LOG_LEVEL: 'warn',
} as const;

export interface Listening {
  type: 'cpe:listening';
  serviceUrl: string;
  demoUrl: string;
}
export const isListening = (message: unknown): message is Listening => (message as Listening | undefined)?.type === 'cpe:listening';

export interface ServiceChild extends Child {
  url: string;
  port: number;
  demoUrl: string;
  credentials: { merchantId: number; licenceKey: string; publicKey: string; accessToken: string };
}

/**
 * Node's arguments to run one of the project's entry files (`scripts/start`, `server/cli/<name>`), from
 * the root: compiled, under `npm test` (CPE_TEST_COMPILED, scripts/build-tests.mjs: half the processor
 * to start), or from its source through tsx.
 */
export function nodeEntry(file: string): string[] {
  const compiled = process.env.CPE_TEST_COMPILED;
  return compiled ? ['--enable-source-maps', join(compiled, `${file}.js`)] : ['--import', 'tsx', `${file}.ts`];
}

/** How to run scripts/start.ts, the service (`nodeEntry`). */
export const serviceEntry = (): string[] => nodeEntry('scripts/start');

/**
 * `npm run -s <script> [-- args…]` as a command and its arguments. Under `npm test` a script that is
 * `node --import tsx server/cli/<name>.ts` (every CLI command) runs compiled, straight from Node, as
 * its package.json line says (npm and tsx took about a second of processor per command); another
 * script, or a file run alone, goes through npm.
 */
function npmRun(args: string[]): { command: string; args: string[] } {
  const compiled = process.env.CPE_TEST_COMPILED;
  const [script, ...rest] = args;
  const line = (JSON.parse(readFileSync(join(import.meta.dirname, '../package.json'), 'utf8')).scripts as Record<string, string>)[script!];
  const file = line?.match(CLI_SCRIPT)?.[1];
  if (!compiled || !file) return { command: 'npm', args: ['run', '-s', ...args] };
  return { command: process.execPath, args: [...nodeEntry(file), ...(rest[0] === '--' ? rest.slice(1) : rest)] };
}

/** Runs `npm run -s <script> [-- args…]` (as `npmRun` says) from the project's root, to its end. */
export function npmRunSync(args: string[], env: NodeJS.ProcessEnv = process.env): SpawnSyncReturns<string> {
  const run = npmRun(args);
  return spawnSync(run.command, run.args, { cwd: join(import.meta.dirname, '..'), env, encoding: 'utf8' });
}

/**
 * `npm start`'s service process (`node --import tsx scripts/start.ts`, or compiled: `serviceEntry`),
 * without the npm wrapper and its build check, on ports it binds itself (PORT=0, DEMO_PORT=0) and
 * reports, with its own data folder and the given environment; resolves once it serves (its
 * `cpe:listening` message) with its credentials. `clock`: the service's clock holds still at these
 * Unix seconds, moved only by `moveClock` (CPE_TEST_CLOCK, server/test-clock.ts).
 */
export async function startServiceChild(
  root: string,
  dataDir: string,
  env: Record<string, string> = {},
  options: { nodeFlags?: string[]; keepBytes?: number; startTimeoutMs?: number; clock?: number } = {},
): Promise<ServiceChild> {
  const child = spawnNode('the service', [...(options.nodeFlags ?? []), ...serviceEntry()], {
    cwd: root,
    env: { PORT: '0', DEMO_PORT: '0', CPE_DATA_DIR: dataDir, CPE_PUBLIC_URL: 'http://127.0.0.1:0', ...env, ...(options.clock === undefined ? {} : { CPE_TEST_CLOCK: String(options.clock) }) },
    keepBytes: options.keepBytes,
  });
  const listening = await child.message(isListening, 'serving (its cpe:listening message)', options.startTimeoutMs ?? 120_000);
  const credentials = JSON.parse(readFileSync(join(dataDir, 'credentials.json'), 'utf8'));
  return { ...child, url: listening.serviceUrl, port: Number(new URL(listening.serviceUrl).port), demoUrl: listening.demoUrl, credentials };
}

let clockMoves = 0;

/**
 * Moves the held clock of a service child started with `clock` by `seconds`; resolves with its time
 * once moved and the refund settlement job has passed at it (server/test-clock.ts).
 */
export async function moveClock(child: Pick<Child, 'proc' | 'message'>, seconds: number): Promise<number> {
  const id = ++clockMoves;
  child.proc.send({ type: 'cpe:move-clock', id, seconds } satisfies ClockMove);
  const moved = await child.message((message): message is ClockMoved => isClockMoved(message) && message.id === id, `its clock moved (${id})`, 30_000);
  return moved.now;
}

/**
 * A TCP socket listening on port 0 of `host`, for a server that must be known by its port before it
 * starts (a child that cannot report the port it binds, a page origin a merchant is registered for):
 * the parent binds, learns the port, and hands the socket over (`handSocket`, or `listen(socket)`). Connections made before
 * the child takes it wait in the socket's queue, so the child is ready as soon as it is handed.
 */
export function boundSocket(host: string | null = '127.0.0.1'): Promise<{ server: Server; port: number }> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    // Unreferenced: a test that fails before handing it over still ends.
    server.unref();
    const listening = () => resolve({ server, port: (server.address() as { port: number }).port });
    // null: every interface (a browser may reach `localhost` over ::1 or 127.0.0.1).
    if (host === null) server.listen(0, listening);
    else server.listen(0, host, listening);
  });
}

/**
 * Sends `server` (from boundSocket) to `child` as the IPC message `{type: 'cpe:socket'}` and closes
 * this process's copy, so the child alone accepts. The child listens on it:
 * `process.once('message', (_, socket) => httpServer.listen(socket))`.
 */
export function handSocket(child: ChildProcess, server: Server): Promise<void> {
  return new Promise((resolve, reject) =>
    child.send({ type: 'cpe:socket' }, server, (error) => {
      if (error) return reject(error);
      server.close(() => resolve());
    }),
  );
}

/** SIGTERM, then SIGKILL if it has not exited after `graceMs` (scaled). */
export async function stop(child: Pick<Child, 'proc'>, graceMs = 5_000): Promise<void> {
  const { proc } = child;
  if (!alive(proc)) return;
  const exited = new Promise<void>((resolve) => proc.once('exit', () => resolve()));
  proc.kill('SIGTERM');
  const timer = setTimeout(() => alive(proc) && proc.kill('SIGKILL'), scaled(graceMs));
  await exited;
  clearTimeout(timer);
}

/** Last resort, synchronous (usable from process 'exit'): SIGKILL every child still running. */
export function killAll(): void {
  for (const proc of children) if (alive(proc)) proc.kill('SIGKILL');
}

/**
 * Children die with us, whatever way we go: kills them on exit and on SIGINT/SIGTERM (exit 130),
 * and after `timeoutSeconds` (scaled; exit 2). Returns the watchdog timer, for `clearTimeout` at the end.
 */
export function guardChildren(timeoutSeconds: number): NodeJS.Timeout {
  process.on('exit', killAll);
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.on(signal, () => {
      console.error(`\n${signal}: stopping`);
      killAll();
      process.exit(130);
    });
  }
  const limit = scaled(timeoutSeconds * 1000);
  return setTimeout(() => {
    console.error(`Exceeded ${limit / 1000} s: stopping.`);
    killAll();
    process.exit(2);
  }, limit);
}
