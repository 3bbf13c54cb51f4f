/**
 * The log is written asynchronously in batches (pino), and none of it is lost when the process ends:
 * at a SIGTERM, and after an error nothing caught, which is logged as a `fatal` line before the
 * process exits 1. (Without the flush, the lines still in the batch die with the process.)
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import { tempDataDir } from '../../testkit/data-folder.ts';
import { embeddedOnly } from '../helpers/service.ts';
import { startServiceChild, stop, type ServiceChild } from '../../testkit/processes.ts';

const root = join(import.meta.dirname, '../..');
const started: ServiceChild[] = [];
after(() => Promise.all(started.map((child) => stop(child))));

async function serviceLoggingToFile() {
  const dir = tempDataDir();
  const logFile = join(dir, 'cpe.log');
  const service = await startServiceChild(root, dir, { CPE_LOG_FILE: logFile, CPE_LOG_LEVEL: 'info', CPE_RATE_LIMIT: '0' }, { nodeFlags: ['--import', './test/server/fixtures/fatal-on-sigusr2.mjs'] });
  started.push(service);
  const requests = await Promise.all(
    Array.from({ length: 40 }, (_, i) =>
      fetch(`${service.url}/v1/contacts?limit=${1 + (i % 5)}`, { headers: { authorization: `Bearer ${service.credentials.accessToken}` } }).then((r) => r.status),
    ),
  );
  assert.deepEqual(new Set(requests), new Set([200]));
  const lines = () => readFileSync(logFile, 'utf8').split('\n').filter(Boolean).map((line) => JSON.parse(line) as { msg: string; level: string; path?: string; message?: string });
  const listed = () => lines().filter((line) => line.msg === 'request' && line.path === '/v1/contacts').length;
  return { service, lines, listed };
}

describe('the log at the end of the process', embeddedOnly, () => {
  test('after an error nothing catches: every request line, then a fatal line, and exit 1', async () => {
    const { service, lines, listed } = await serviceLoggingToFile();
    service.proc.kill('SIGUSR2');
    const { code } = await service.exited;
    assert.equal(code, 1);
    assert.equal(listed(), 40, 'no request line lost');
    const fatal = lines().filter((line) => line.level === 'fatal');
    assert.deepEqual(
      fatal.map((line) => [line.msg, line.message]),
      [['uncaught exception', 'test fixture: an error nothing catches']],
      'the error is logged, once',
    );
  });

  test('at SIGTERM: every request line', async () => {
    const { service, listed } = await serviceLoggingToFile();
    await stop(service);
    assert.equal(listed(), 40, 'no request line lost');
  });
});
