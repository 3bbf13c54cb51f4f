import { execFileSync, spawnSync } from 'node:child_process';
import { chmodSync, chownSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { scaled } from './time.ts';

const readLog = (file: string) => (existsSync(file) ? readFileSync(file, 'utf8') : '');

/** PG_BIN, or the newest of Debian's PostgreSQL servers (apt-get install postgresql): /usr/lib/postgresql/<major>/bin. */
export const PG_BIN =
  process.env.PG_BIN ??
  (() => {
    const base = '/usr/lib/postgresql';
    const majors = existsSync(base) ? readdirSync(base).filter((v) => /^\d+$/.test(v) && existsSync(join(base, v, 'bin', 'initdb'))) : [];
    majors.sort((a, b) => Number(b) - Number(a));
    return join(base, majors[0] ?? '15', 'bin');
  })();

export interface TempPostgres {
  /** postgres://postgres@127.0.0.1:<port>/postgres */
  url: string;
  /** The same server through its Unix socket (no TCP): postgres://postgres@/postgres?host=<folder>. */
  socketUrl: string;
  port: number;
  /** A fresh empty database on this server; its URL. */
  createDatabase(name?: string): Promise<string>;
  stop(): void;
}

/**
 * A port that was free a moment ago. PostgreSQL cannot listen on port 0 and report the port it got,
 * so this is the one place a port is picked before it is bound: startPostgres binds it at once and
 * picks another if someone took it meanwhile (every other child of the tests binds port 0, which the
 * system never hands out while PostgreSQL holds it).
 */
const unusedPort = () =>
  new Promise<number>((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });

const isRoot = () => process.getuid?.() === 0;

/** Runs a PostgreSQL binary as the postgres user when we are root (initdb refuses root). */
function pg(binary: string, args: string[]): void {
  const command = isRoot() ? ['runuser', ['-u', 'postgres', '--', join(PG_BIN, binary), ...args]] as const : [join(PG_BIN, binary), args] as const;
  const result = spawnSync(command[0], command[1], { encoding: 'utf8' });
  if (result.status !== 0) throw new Error(`${binary} failed (${result.status}): ${result.stderr || result.stdout}`);
}

let counter = 0;

/**
 * A throwaway PostgreSQL server: initdb into a temporary folder, pg_ctl on a loopback port,
 * removed by stop() (and at exit). `durable: false` turns fsync off (tests: nothing kills the
 * database itself); the benchmarks keep it on, as the embedded store's fdatasync is.
 */
export async function startPostgres({ durable = false, settings = {} }: { durable?: boolean; settings?: Record<string, string> } = {}): Promise<TempPostgres> {
  if (!existsSync(join(PG_BIN, 'initdb'))) throw new Error(`No PostgreSQL in ${PG_BIN}: apt-get install -y postgresql (or set PG_BIN).`);
  const dir = mkdtempSync(join(tmpdir(), 'cpe-pg-'));
  chmodSync(dir, 0o700);
  if (isRoot()) {
    const uid = Number(execFileSync('id', ['-u', 'postgres'], { encoding: 'utf8' }).trim());
    const gid = Number(execFileSync('id', ['-g', 'postgres'], { encoding: 'utf8' }).trim());
    chownSync(dir, uid, gid);
  }
  const data = join(dir, 'data');
  pg('initdb', ['-D', data, '-A', 'trust', '-U', 'postgres', '-E', 'UTF8', '--locale=C', '--no-sync']);
  const settingsOf = (port: number) => {
    const options = [`-p ${port}`, `-k ${dir}`, '-c listen_addresses=127.0.0.1', '-c max_connections=200', '-c shared_buffers=128MB'];
    if (!durable) options.push('-c fsync=off', '-c synchronous_commit=off', '-c full_page_writes=off');
    for (const [name, value] of Object.entries(settings)) options.push(`-c ${name}=${value}`);
    return options.join(' ');
  };
  let port = 0;
  for (let attempt = 1; ; attempt++) {
    port = await unusedPort();
    try {
      pg('pg_ctl', ['-D', data, '-l', join(dir, 'log'), '-o', settingsOf(port), '-w', '-t', String(Math.ceil(scaled(60_000) / 1000)), 'start']);
      break;
    } catch (error) {
      const taken = /could not bind|already in use|could not create any TCP\/IP sockets/i.test(readLog(join(dir, 'log')));
      if (!taken || attempt === 5) throw error;
      process.stderr.write(`PostgreSQL: port ${port} was taken before it bound it; trying another\n`);
    }
  }
  let stopped = false;
  const stop = () => {
    if (stopped) return;
    stopped = true;
    try {
      pg('pg_ctl', ['-D', data, '-m', 'immediate', '-w', 'stop']);
    } catch {
      // already gone
    }
    rmSync(dir, { recursive: true, force: true });
  };
  process.once('exit', stop);
  const url = `postgres://postgres@127.0.0.1:${port}/postgres`;
  return {
    url,
    socketUrl: `postgres://postgres@/postgres?host=${encodeURIComponent(dir)}&port=${port}`,
    port,
    stop,
    createDatabase: (name) => createDatabase(url, name),
  };
}

/** CREATE DATABASE on the server of `url`; the new database's URL. */
export async function createDatabase(url: string, name = `cpe_${process.pid}_${++counter}_${Date.now() % 1e6}`): Promise<string> {
  const { default: pg } = await import('pg');
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query(`CREATE DATABASE "${name}"`);
  } finally {
    await client.end();
  }
  // Only the database changes: a socket URL keeps its ?host=… (a URL object would not keep an empty host).
  return url.replace(/^(postgres(?:ql)?:\/\/[^/]*)\/[^?]*/, `$1/${name}`);
}

/**
 * The PostgreSQL server tests use: CPE_TEST_DATABASE_URL when set (scripts/with-postgres.ts starts one
 * for a whole suite), else one started for this process and stopped at its exit.
 */
let shared: Promise<string> | undefined;
export function testPostgresUrl(): Promise<string> {
  if (process.env.CPE_TEST_DATABASE_URL) return Promise.resolve(process.env.CPE_TEST_DATABASE_URL);
  shared ??= startPostgres().then((server) => server.url);
  return shared;
}

/** A fresh database for one test service. */
export const freshTestDatabase = async (): Promise<string> => createDatabase(await testPostgresUrl());
