/**
 * Slow and idle clients (headers trickled in, a body that never ends, hundreds of connections held
 * open) cannot hold the service: headers must arrive within CPE_HEADERS_TIMEOUT_MS and a whole
 * request within CPE_REQUEST_TIMEOUT_MS (408 after), and past CPE_MAX_CONNECTIONS the connection idle
 * longest is closed, so real requests are still served.
 */
import assert from 'node:assert/strict';
import { request as httpRequest } from 'node:http';
import { connect, type Socket } from 'node:net';
import { after, describe, test } from 'node:test';
import { systemClock } from '../../server/clock.ts';
import { configFromEnv, type Config } from '../../server/config.ts';
import { createLogger } from '../../server/logger.ts';
import { startService, type RunningService } from '../../server/start.ts';
import { withTimeout } from '../../testkit/wait.ts';
import { testConfig } from '../helpers/service.ts';

const running: RunningService[] = [];
after(() => Promise.all(running.map((service) => service.close())));

async function service(limits: Partial<Config>): Promise<RunningService> {
  const started = await startService(testConfig(limits), systemClock, createLogger({ level: 'silent' }));
  running.push(started);
  return started;
}

/** A raw connection and everything it receives, until the server closes it. */
function rawConnection(port: number): { socket: Socket; received: () => string; closed: Promise<void> } {
  const socket = connect(port, '127.0.0.1');
  let text = '';
  socket.on('data', (chunk) => (text += chunk));
  socket.on('error', () => {});
  return { socket, received: () => text, closed: new Promise((resolve) => socket.once('close', () => resolve())) };
}

/** A real request on a connection of its own: its status. */
const realRequest = (port: number, token: string) =>
  new Promise<number>((resolve, reject) => {
    const request = httpRequest({ host: '127.0.0.1', port, path: '/v1/contacts', agent: false, headers: { authorization: `Bearer ${token}` } }, (response) => {
      response.resume();
      response.on('end', () => resolve(response.statusCode!));
    });
    request.on('error', reject);
    request.end();
  });

describe('slow and idle clients', () => {
  test('headers trickled in byte by byte are cut at the headers timeout with a 408', async () => {
    const { port } = await service({ headersTimeoutMs: 500, requestTimeoutMs: 5_000 });
    const client = rawConnection(port);
    const header = 'GET /v1/contacts HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: ' + 'a'.repeat(10_000);
    let at = 0;
    const trickle = setInterval(() => !client.socket.destroyed && client.socket.write(header[at++ % header.length]), 20);
    try {
      await withTimeout(client.closed, 15_000, 'the server closing the trickling connection');
    } finally {
      clearInterval(trickle);
    }
    assert.match(client.received(), /^HTTP\/1\.1 408 /);
  });

  test('a body that never ends is cut at the request timeout with a 408', async () => {
    const { port } = await service({ headersTimeoutMs: 500, requestTimeoutMs: 1_000 });
    const client = rawConnection(port);
    client.socket.write('POST /v1/contacts HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n{"username":');
    await withTimeout(client.closed, 15_000, 'the server closing the connection whose body never ends');
    assert.match(client.received(), /^HTTP\/1\.1 408 /);
  });

  test('300 idle connections past the cap of 50 do not stop real requests: the longest idle are closed', async () => {
    const svc = await service({ maxConnections: 50, headersTimeoutMs: 60_000, requestTimeoutMs: 60_000 });
    let closedByServer = 0;
    let enoughClosed!: () => void;
    const allButCapClosed = new Promise<void>((resolve) => (enoughClosed = resolve));
    const idle = Array.from({ length: 300 }, () => {
      const client = rawConnection(svc.port);
      // A request line and no more, as a slow client (or an attack holding connections) sends.
      client.socket.write('GET /v1/contacts HTTP/1.1\r\n');
      void client.closed.then(() => ++closedByServer >= 250 && enoughClosed());
      return client;
    });
    try {
      await Promise.all(idle.map((client) => new Promise((resolve) => (client.socket.connecting ? client.socket.once('connect', resolve) : resolve(undefined)))));
      const statuses = await withTimeout(Promise.all(Array.from({ length: 20 }, () => realRequest(svc.port, svc.credentials.accessToken))), 30_000, 'the real requests');
      assert.deepEqual(new Set(statuses), new Set([200]), 'every real request served');
      await withTimeout(allButCapClosed, 30_000, 'the service closing the idle connections past its cap');
      assert.ok(closedByServer <= 300 - 50 + 20, `${closedByServer} closed: the newest idle ones are kept up to the cap`);
    } finally {
      for (const client of idle) client.socket.destroy();
    }
  });

  test('the limits are read from the environment, with defaults tighter than Node’s', () => {
    assert.deepEqual(pick(configFromEnv({})), { headersTimeoutMs: 10_000, requestTimeoutMs: 30_000, maxConnections: 1_000 });
    assert.deepEqual(pick(configFromEnv({ CPE_HEADERS_TIMEOUT_MS: '2000', CPE_REQUEST_TIMEOUT_MS: '4000', CPE_MAX_CONNECTIONS: '64' })), {
      headersTimeoutMs: 2_000,
      requestTimeoutMs: 4_000,
      maxConnections: 64,
    });
    assert.throws(() => configFromEnv({ CPE_HEADERS_TIMEOUT_MS: '5000', CPE_REQUEST_TIMEOUT_MS: '1000' }), /cannot be shorter than CPE_HEADERS_TIMEOUT_MS/);
    assert.throws(() => configFromEnv({ CPE_MAX_CONNECTIONS: 'lots' }), /CPE_MAX_CONNECTIONS is a positive whole number/);
  });
});

const pick = ({ headersTimeoutMs, requestTimeoutMs, maxConnections }: Config) => ({ headersTimeoutMs, requestTimeoutMs, maxConnections });
