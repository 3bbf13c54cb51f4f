/**
 * `node --import tsx scripts/with-postgres.ts [--database] <command…>`: runs a command with a throwaway
 * PostgreSQL server (testkit/postgres.ts: initdb into a temporary folder, pg_ctl on a
 * loopback port) whose URL is in CPE_TEST_DATABASE_URL, and CPE_TEST_ENGINE=postgres; with
 * `--database`, also a new empty database on it in CPE_DATABASE_URL, so that a service the command
 * starts runs on PostgreSQL (the model suites). The server and its folder are removed afterwards,
 * whatever the command's outcome. Exits with the command's status.
 */
import { spawn } from 'node:child_process';
import { startPostgres } from '../testkit/postgres.ts';

const argv = process.argv.slice(2);
const withDatabase = argv[0] === '--database';
const [command, ...args] = withDatabase ? argv.slice(1) : argv;
if (!command) {
  process.stderr.write('Usage: node --import tsx scripts/with-postgres.ts <command> [args…]\n');
  process.exit(2);
}
const server = await startPostgres();
process.stderr.write(`--- throwaway PostgreSQL on port ${server.port}\n`);
const env: NodeJS.ProcessEnv = { ...process.env, CPE_TEST_ENGINE: 'postgres', CPE_TEST_DATABASE_URL: server.url };
if (withDatabase) env.CPE_DATABASE_URL = await server.createDatabase();
const child = spawn(command, args, { stdio: 'inherit', env });
for (const signal of ['SIGINT', 'SIGTERM'] as const) process.on(signal, () => child.kill(signal));
const code = await new Promise<number>((resolve) => child.on('exit', (status, signal) => resolve(status ?? (signal ? 1 : 0))));
server.stop();
process.exit(code);
