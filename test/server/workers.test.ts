/**
 * `npm start` with CPE_PROCESSES workers on PostgreSQL, as an operator runs it (node:cluster, real
 * processes): a worker that dies during start-up is replaced and the service comes up; only every
 * worker dying before it is ready, time after time, stops it, with the last error. Runs in the
 * PostgreSQL leg (CPE_TEST_ENGINE=postgres). The rules themselves are in supervisor.test.ts.
 */
import assert from 'node:assert/strict';
import { request as httpRequest } from 'node:http';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import { tempDataDir } from '../../testkit/data-folder.ts';
import { freshTestDatabase } from '../../testkit/postgres.ts';
import { boundSocket, serviceEntry, spawnNode, startServiceChild, stop, type Child } from '../../testkit/processes.ts';
import { testEngine } from '../helpers/service.ts';

const root = join(import.meta.dirname, '../..');
const onPostgres = { skip: testEngine() !== 'postgres' ? 'PostgreSQL leg only (CPE_TEST_ENGINE=postgres)' : false };
const started: Child[] = [];
after(() => Promise.all(started.map((child) => stop(child))));

/** `npm start` (without npm) with `workers` workers on a new database, serving (its cpe:listening message). */
async function cluster(workers: number, nodeFlags: string[] = []) {
  const service = await startServiceChild(
    root,
    tempDataDir(),
    { CPE_DATABASE_URL: await freshTestDatabase(), CPE_PROCESSES: String(workers), CPE_RATE_LIMIT: '0', CPE_LOG_LEVEL: 'warn' },
    { nodeFlags },
  );
  started.push(service);
  return service;
}

/** Creates a contact on a new connection each time (node:cluster hands out connections, not requests); rejects unless 200. */
function createOnNewConnection(port: number, token: string, username: string): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    const request = httpRequest(
      { host: '127.0.0.1', port, method: 'POST', path: '/v1/contacts', agent: false, headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' } },
      (response) => {
        let text = '';
        response.on('data', (chunk) => (text += chunk));
        response.on('end', () => (response.statusCode === 200 ? resolve() : reject(new Error(`${username}: ${response.statusCode} ${text}`))));
      },
    );
    request.on('error', reject);
    request.end(JSON.stringify({ username, phone_number: '+441234567' }));
  });
}

describe('CPE_PROCESSES workers', onPostgres, () => {
  test('a worker that dies during start-up is replaced: the service comes up with every worker and serves', async () => {
    const service = await cluster(2, ['--import', './test/server/fixtures/second-worker-dies-at-start.mjs']);
    const [, pid] = await service.line(/test fixture: worker (\d+) dies during start-up/);
    await service.line(new RegExp(`CPE worker ${pid} exited \\(1\\): starting another in \\d+ ms \\(it died before it was ready, 1 time in a row\\)`));
    // Both serve: the replacement was ready before the service came up, or said so after it.
    await service.line(/CPE 2 of 2 workers serving\.|is ready \(2 of 2 serving\)/);
    for (let i = 0; i < 6; i++) await createOnNewConnection(service.port, service.credentials.accessToken, `after-${i}`);
    assert.doesNotMatch(service.output(), /CPE stopped/);
  });

  test('a worker killed while another serves is replaced without a single 503: the replacement takes connections once ready', async () => {
    const service = await cluster(2);
    const [, first] = await service.line(/worker processes \(pids (\d+), \d+\)/);
    const token = service.credentials.accessToken;
    await createOnNewConnection(service.port, token, 'before');
    process.kill(Number(first), 'SIGKILL');
    await service.line(new RegExp(`CPE worker ${first} exited \\(SIGKILL\\): starting another in \\d+ ms \\(it had served`));
    let bothReady = false;
    const ready = service.line(/is ready \(2 of 2 serving\)/).then(() => (bothReady = true));
    let during = 0;
    while (!bothReady) await createOnNewConnection(service.port, token, `during-${during++}`);
    await ready;
    for (let i = 0; i < 6; i++) await createOnNewConnection(service.port, token, `after-${i}`);
    assert.ok(during > 0, 'requests were made while the replacement started');
  });

  test('every worker dying before it is ready, time after time (its port is taken), stops the service naming the last error', async () => {
    // The service's port, held by this test (bound on port 0: nothing else can take it meanwhile).
    const { server: holder, port } = await boundSocket('::');
    try {
      const service = spawnNode('the service', serviceEntry(), {
        cwd: root,
        env: { PORT: String(port), DEMO_PORT: '0', CPE_DATA_DIR: tempDataDir(), CPE_DATABASE_URL: await freshTestDatabase(), CPE_PROCESSES: '2', CPE_LOG_LEVEL: 'warn' },
      });
      started.push(service);
      const { code } = await service.exited;
      assert.equal(code, 1, service.output());
      assert.match(service.output(), /exited \(1\): starting another in \d+ ms \(it died before it was ready, 4 times in a row\)/, 'restarted with backoff first');
      assert.match(
        service.output(),
        new RegExp(`CPE stopped: every worker died before it was ready, 5 times in a row \\(is the configuration broken\\?\\)\\. The last error: Port ${port} \\(the service\\) is already in use`),
      );
    } finally {
      holder.close();
    }
  });
});
