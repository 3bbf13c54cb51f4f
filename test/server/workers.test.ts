/**
 * `npm start` with CPE_PROCESSES workers on PostgreSQL, as an operator runs it (node:cluster, real
 * processes): a worker that dies during start-up is replaced and the service comes up; only every
 * worker dying before it is ready, time after time, stops it, with the last error. Runs in the
 * PostgreSQL leg (CPE_TEST_ENGINE=postgres). The rules themselves are in supervisor.test.ts.
 */
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:net';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import { freshTestDatabase } from '../helpers/postgres.ts';
import { tempDataDir } from '../helpers/service-process.ts';
import { testEngine } from '../helpers/service.ts';
import { WatchedProcess } from './watched-process.ts';

const root = join(import.meta.dirname, '../..');
const onPostgres = { skip: testEngine() !== 'postgres' ? 'PostgreSQL leg only (CPE_TEST_ENGINE=postgres)' : false };
const started: WatchedProcess[] = [];
after(() => Promise.all(started.map((p) => p.stop())));

/** `npm start` (without npm) with `workers` workers on a new database, any free ports. */
async function cluster(workers: number, env: Record<string, string> = {}, nodeFlags: string[] = []): Promise<WatchedProcess> {
  const child = new WatchedProcess(['--import', 'tsx', ...nodeFlags, 'scripts/start.ts'], {
    cwd: root,
    env: {
      ...process.env,
      PORT: '0',
      DEMO_PORT: '0',
      CPE_PUBLIC_URL: '',
      CPE_DATA_DIR: tempDataDir(),
      CPE_DATABASE_URL: await freshTestDatabase(),
      CPE_PROCESSES: String(workers),
      CPE_RATE_LIMIT: '0',
      CPE_LOG_LEVEL: 'info',
      ...env,
    },
  });
  started.push(child);
  return child;
}

describe('CPE_PROCESSES workers', onPostgres, () => {
  test('a worker that dies during start-up is replaced: the service comes up with every worker and serves', async () => {
    const service = await cluster(2, {}, ['--import', './test/server/fixtures/second-worker-dies-at-start.ts']);
    const [, pid] = await service.waitFor(/test fixture: worker (\d+) dies during start-up/);
    await service.waitFor(new RegExp(`CPE worker ${pid} exited \\(1\\): starting another in \\d+ ms \\(it died before it was ready, 1 time in a row\\)`));
    const [, port] = await service.waitFor(/"port":(\d+),"msg":"listening"/);
    const [, token] = await service.waitFor(/accessToken\s+(\S+)/);
    await service.waitFor(/is ready \(2 of 2 serving\)/);
    for (let i = 0; i < 6; i++) {
      const created = await fetch(`http://127.0.0.1:${port}/v1/contacts`, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        body: JSON.stringify({ username: `w${i}`, phone_number: '+441234567' }),
      });
      assert.equal(created.status, 200, await created.text());
    }
    assert.ok(service.alive, 'the primary runs on');
    assert.doesNotMatch(service.output, /CPE stopped/);
  });

  test('every worker dying before it is ready, time after time (its port is taken), stops the service naming the last error', async () => {
    // The service's port, held by this test on every interface as the service would bind it.
    const holder: Server = createServer();
    await new Promise<void>((resolve) => holder.listen(0, resolve));
    const port = (holder.address() as { port: number }).port;
    try {
      const service = await cluster(2, { PORT: String(port) });
      const { code } = await service.exited;
      assert.equal(code, 1, service.output);
      assert.match(service.output, /exited \(1\): starting another in \d+ ms \(it died before it was ready, 4 times in a row\)/, 'restarted with backoff first');
      assert.match(
        service.output,
        new RegExp(`CPE stopped: every worker died before it was ready, 5 times in a row \\(is the configuration broken\\?\\)\\. The last error: Port ${port} \\(the service\\) is already in use`),
      );
    } finally {
      holder.close();
    }
  });
});
