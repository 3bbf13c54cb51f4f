import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export interface ServiceProcess {
  url: string;
  child: ChildProcess;
  output: () => string;
  stop(signal?: NodeJS.Signals): Promise<void>;
}

export const tempDataDir = () => mkdtempSync(join(tmpdir(), 'cpe-test-'));

/** `npm start` as a user runs it (one node process), on free ports, with its data in `dataDir`. */
export async function startServiceProcess(dataDir: string, env: Record<string, string> = {}): Promise<ServiceProcess> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'server/main.ts'], {
    env: { ...process.env, PORT: '0', DEMO_PORT: '0', CPE_DATA_DIR: dataDir, CPE_RATE_LIMIT: '0', CPE_LOG_LEVEL: 'warn', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  child.stdout!.on('data', (chunk) => (out += chunk));
  child.stderr!.on('data', (chunk) => (out += chunk));
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`service did not start:\n${out}`)), 20_000);
    const check = () => {
      const match = /CPE service\s+(http:\/\/\S+)/.exec(out);
      if (match) {
        clearTimeout(timer);
        resolve(match[1].replace('localhost', '127.0.0.1'));
      }
    };
    child.stdout!.on('data', check);
    child.once('exit', (code) => reject(new Error(`service exited ${code}:\n${out}`)));
  });
  return {
    url,
    child,
    output: () => out,
    stop: (signal = 'SIGTERM') =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null || child.signalCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.kill(signal);
      }),
  };
}

export const accessTokenOf = (dataDir: string): string =>
  JSON.parse(readFileSync(join(dataDir, 'credentials.json'), 'utf8')).accessToken;

/** Runs an npm CLI command of the project (`credentials`, `token`, `merchant`) against `dataDir`. */
export function cli(dataDir: string, args: string[]): { stdout: string; stderr: string; status: number | null } {
  const result = spawnSync('npm', ['run', '-s', ...args], { env: { ...process.env, CPE_DATA_DIR: dataDir }, encoding: 'utf8' });
  return { stdout: result.stdout.trim(), stderr: result.stderr, status: result.status };
}
