/**
 * A child process whose output a test awaits line by line (never by sleeping): `waitFor(pattern)`
 * resolves with the first match in everything it has printed so far, or as soon as it prints one;
 * it fails at once if the process exits first, and after a deadline (scaled by CPE_TEST_TIME_SCALE)
 * so a test that would hang fails with the output instead.
 */
import { spawn, type ChildProcess } from 'node:child_process';

const scale = Number(process.env.CPE_TEST_TIME_SCALE) > 0 ? Number(process.env.CPE_TEST_TIME_SCALE) : 1;

export class WatchedProcess {
  readonly proc: ChildProcess;
  #output = '';
  #waiters = new Set<() => void>();
  readonly exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;

  constructor(args: string[], options: { cwd: string; env: NodeJS.ProcessEnv }) {
    this.proc = spawn(process.execPath, args, { cwd: options.cwd, env: options.env, stdio: ['ignore', 'pipe', 'pipe'] });
    const take = (chunk: Buffer) => {
      this.#output += chunk.toString();
      for (const wake of this.#waiters) wake();
    };
    this.proc.stdout!.on('data', take);
    this.proc.stderr!.on('data', take);
    this.exited = new Promise((resolve) =>
      this.proc.once('exit', (code, signal) => {
        // The last output may come after 'exit': the streams' end is the real end.
        let open = 2;
        const done = () => --open === 0 && resolve({ code, signal });
        if (this.proc.stdout!.readableEnded) done();
        else this.proc.stdout!.once('end', done);
        if (this.proc.stderr!.readableEnded) done();
        else this.proc.stderr!.once('end', done);
      }),
    );
  }

  get output(): string {
    return this.#output;
  }

  get alive(): boolean {
    return this.proc.exitCode === null && this.proc.signalCode === null;
  }

  /** The first match of `pattern` in the output (from `from`), waiting for it if needed. */
  waitFor(pattern: RegExp, { from = 0, timeoutMs = 60_000 }: { from?: number; timeoutMs?: number } = {}): Promise<RegExpExecArray> {
    return new Promise((resolve, reject) => {
      let ended = false;
      let settled = false;
      const finish = (error?: Error, match?: RegExpExecArray) => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        this.#waiters.delete(check);
        if (error) reject(error);
        else resolve(match!);
      };
      const check = () => {
        const match = pattern.exec(this.#output.slice(from));
        if (match) finish(undefined, match);
        else if (ended) finish(new Error(`exited (${this.proc.exitCode ?? this.proc.signalCode}) without ${pattern}; output:\n${this.#output.slice(-4000)}`));
      };
      const timer = setTimeout(() => finish(new Error(`no ${pattern} within ${(timeoutMs * scale) / 1000} s; output:\n${this.#output.slice(-4000)}`)), timeoutMs * scale);
      this.#waiters.add(check);
      void this.exited.then(() => {
        ended = true;
        check();
      });
      check();
    });
  }

  /** SIGTERM, then SIGKILL if it has not exited within `graceMs`; resolves once it has. */
  async stop(graceMs = 10_000): Promise<void> {
    if (!this.alive) return;
    this.proc.kill('SIGTERM');
    const timer = setTimeout(() => this.alive && this.proc.kill('SIGKILL'), graceMs * scale);
    await this.exited;
    clearTimeout(timer);
  }
}
