import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import fc from 'fast-check';
import { apiClient, type Api, type ApiResponse } from '../helpers/service.ts';
import { startServiceProcess, type ServiceProcess } from '../helpers/service-process.ts';
import { tempDataDir } from '../../testkit/data-folder.ts';
import { UNLIMITED } from '../../testkit/processes.ts';

/**
 * The real service for the model suites: `npm start`'s process, spawned through the test helpers
 * with whatever environment this process has (so `CPE_DATABASE_URL=… npm run test:model` runs the
 * same sequences on PostgreSQL), and its own data folder. Commands restart it (clean, or kill -9, or
 * kill -9 while writes are in flight) and carry on against the new process. With `heldClock`, the
 * service's clock stands still (at the time the suite starts) and moves only by `moveClock`, in this
 * process and every one restarted after it (CPE_TEST_CLOCK, server/test-clock.ts).
 */

/** The limits would throttle a long run from one address: off, as in the other property suites. */
const ENV = { ...UNLIMITED, CPE_LOG_LEVEL: 'error' };

export interface Credentials {
  merchantId: number;
  licenceKey: string;
  publicKey: string;
  accessToken: string;
}

export class Service {
  restarts = 0;
  #proc!: ServiceProcess;
  #api!: Api;
  readonly dataDir = tempDataDir();
  credentials!: Credentials;
  /** The service's time (Unix seconds) when its clock is held; undefined: the system's clock. */
  clock?: number;

  constructor({ heldClock = false } = {}) {
    if (heldClock) this.clock = Math.floor(Date.now() / 1000);
  }

  async start(): Promise<void> {
    this.#proc = await startServiceProcess(this.dataDir, ENV, { clock: this.clock });
    this.#api = apiClient(this.#proc.url);
    this.credentials = JSON.parse(readFileSync(join(this.dataDir, 'credentials.json'), 'utf8'));
  }

  /** A request; a network failure (the process killed under it) rejects. */
  api: Api = (method, path, options) => this.#api(method, path, options);

  /** Stops the process (`SIGKILL`: kill -9, nothing flushed) and starts a new one on the same data. */
  async restart(signal: 'SIGKILL' | 'SIGTERM'): Promise<void> {
    await this.#proc.stop(signal);
    this.restarts++;
    await this.start();
  }

  /** Kills the process as soon as `afterFirst` of the given requests have been answered. */
  async killDuring<T>(requests: (() => Promise<T>)[], afterFirst = 1): Promise<PromiseSettledResult<T>[]> {
    let answered = 0;
    let killed: Promise<void> | undefined;
    const kill = () => (killed ??= this.#proc.stop('SIGKILL'));
    const runs = requests.map((request) =>
      request().finally(() => {
        if (++answered >= afterFirst) void kill();
      }),
    );
    const settled = await Promise.allSettled(runs);
    await kill();
    this.restarts++;
    await this.start();
    return settled;
  }

  /** Moves the held clock by `seconds` (the next processes start at the new time too). */
  async moveClock(seconds: number): Promise<void> {
    if (this.clock === undefined) throw new Error('moveClock: this service runs on the system clock (new Service({ heldClock: true }))');
    this.clock = await this.#proc.moveClock(seconds);
  }

  stop(): Promise<void> {
    return this.#proc.stop('SIGKILL');
  }
}

export const expectStatus = (r: ApiResponse, status: number, what: string) =>
  assert.equal(r.status, status, `${what}: expected ${status}, got ${r.status} ${JSON.stringify(r.body)}`);

/** fc.commands' options: the longest sequence, and the replay path of a failure to replay (MODEL_REPLAY_PATH). */
export const commandOptions = (maxCommands: number) => ({ maxCommands, size: 'max' as const, ...(process.env.MODEL_REPLAY_PATH ? { replayPath: process.env.MODEL_REPLAY_PATH } : {}) });

export const settings = {
  runs: (name: string, fallback: number) => Number(process.env[`MODEL_${name}_RUNS`] ?? process.env.MODEL_RUNS ?? fallback),
  steps: (name: string, fallback: number) => Number(process.env[`MODEL_${name}_STEPS`] ?? process.env.MODEL_STEPS ?? fallback),
};

/**
 * Runs a model property: prints its seed first; on failure prints the minimal (shrunk) sequence and
 * the command that replays it exactly, then fails with fast-check's report.
 */
export async function checkModel<Ts extends [unknown, ...unknown[]]>(
  file: string,
  name: string,
  property: fc.IAsyncPropertyWithHooks<Ts>,
  runs: number,
): Promise<void> {
  const seed = Number(process.env.MODEL_SEED ?? Math.floor(Math.random() * 2 ** 31));
  const path = process.env.MODEL_PATH;
  const script = relative(process.cwd(), file);
  console.log(`# model ${name}: seed ${seed}, ${runs} runs (MODEL_SEED=${seed} node --import tsx --test ${script})`);
  const details = await fc.check(property, { seed, numRuns: runs, includeErrorInReport: true, ...(path ? { path, endOnFailure: true } : {}) });
  if (details.failed) {
    const error = details.errorInstance;
    console.log(`# model ${name} FAILED after ${details.numShrinks} shrinks; minimal sequence:\n${String(details.counterexample?.[0])}`);
    console.log(`# the error: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
    const replayPath = /replayPath="([^"]*)"/.exec(String(details.counterexample?.[0]))?.[1];
    const replay = `MODEL_SEED=${details.seed} MODEL_PATH='${details.counterexamplePath}'${replayPath ? ` MODEL_REPLAY_PATH='${replayPath}'` : ''}`;
    console.log(`# replay: ${replay} node --import tsx --test ${script}`);
    assert.fail(fc.defaultReportMessage(details) ?? 'model run failed');
  }
}
