/**
 * `node --import tsx scripts/with-postgres.ts <command…>`: runs a command with a throwaway PostgreSQL
 * server (test/helpers/postgres.ts: initdb into a temporary folder, pg_ctl on a free loopback port)
 * whose URL is in CPE_TEST_DATABASE_URL, and CPE_TEST_ENGINE=postgres; the server and its folder are
 * removed afterwards, whatever the command's outcome. Exits with the command's status.
 */
import { spawn } from 'node:child_process';
import { startPostgres } from '../test/helpers/postgres.ts';

const [command, ...args] = process.argv.slice(2);
if (!command) {
  process.stderr.write('Usage: node --import tsx scripts/with-postgres.ts <command> [args…]\n');
  process.exit(2);
}
const server = await startPostgres();
process.stderr.write(`--- throwaway PostgreSQL on port ${server.port}\n`);
const child = spawn(command, args, { stdio: 'inherit', env: { ...process.env, CPE_TEST_ENGINE: 'postgres', CPE_TEST_DATABASE_URL: server.url } });
for (const signal of ['SIGINT', 'SIGTERM'] as const) process.on(signal, () => child.kill(signal));
const code = await new Promise<number>((resolve) => child.on('exit', (status, signal) => resolve(status ?? (signal ? 1 : 0))));
server.stop();
process.exit(code);
