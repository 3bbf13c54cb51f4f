import { type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { moveClock, npmRunSync, startServiceChild } from '../../testkit/processes.ts';

export interface ServiceProcess {
  url: string;
  child: ChildProcess;
  output: (bytes?: number) => string;
  stop(signal?: NodeJS.Signals): Promise<void>;
  /** Started with `clock`: moves its held clock by `seconds`; its time once moved. */
  moveClock(seconds: number): Promise<number>;
}

const root = resolve(import.meta.dirname, '../..');

/**
 * `npm start` as a user runs it (one node process), on ports it binds and reports, with its data in
 * `dataDir`: testkit's startServiceChild, keeping the whole output (the leak test reads it).
 * `clock`: the service's clock holds still at these Unix seconds until moved (CPE_TEST_CLOCK, server/test-clock.ts).
 */
export async function startServiceProcess(dataDir: string, env: Record<string, string> = {}, { clock }: { clock?: number } = {}): Promise<ServiceProcess> {
  const service = await startServiceChild(root, dataDir, { CPE_RATE_LIMIT: '0', CPE_LOG_LEVEL: 'warn', ...env }, { keepBytes: 64 * 1024 * 1024, clock });
  const child = service.proc;
  return {
    url: service.url,
    child,
    output: service.output,
    moveClock: (seconds) => moveClock(service, seconds),
    stop: (signal = 'SIGTERM') =>
      new Promise<void>((done) => {
        if (child.exitCode !== null || child.signalCode !== null) return done();
        child.once('exit', () => done());
        child.kill(signal);
      }),
  };
}

export const accessTokenOf = (dataDir: string): string =>
  JSON.parse(readFileSync(join(dataDir, 'credentials.json'), 'utf8')).accessToken;

/** Runs an npm CLI command of the project (`credentials`, `token`, `merchant`) against `dataDir`. */
export function cli(dataDir: string, args: string[]): { stdout: string; stderr: string; status: number | null } {
  const result = npmRunSync(args, { ...process.env, CPE_DATA_DIR: dataDir });
  return { stdout: result.stdout.trim(), stderr: result.stderr, status: result.status };
}
