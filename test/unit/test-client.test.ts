/**
 * The tests' HTTP client and in-process service survive a stall of the test's own process (a loaded
 * machine, a long synchronous step) between two requests: no request goes out on a connection the
 * server's keep-alive timer is closing ('fetch failed': other side closed, in two fresh-clone runs).
 */
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { test } from 'node:test';
import { apiClient, startTestService } from '../helpers/service.ts';

/** Blocks this process's event loop past Node's default keep-alive timeout (5 s) without using the processor, as a stalled test would. */
const stall = () => Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 6_000);

/** Two requests, the stall, a third: each answers 200 (before the fix the third failed every time: ECONNRESET). */
async function acrossAStall(status: () => Promise<number>) {
  assert.equal(await status(), 200);
  assert.equal(await status(), 200);
  stall();
  assert.equal(await status(), 200);
}

test('apiClient, against a server with Node’s defaults (the service in a child process)', async () => {
  const server = createServer((_, res) => res.writeHead(200, { 'content-type': 'text/plain' }).end('ok'));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  try {
    const api = apiClient(`http://127.0.0.1:${(server.address() as AddressInfo).port}`);
    await acrossAStall(async () => (await api('GET', '/')).status);
  } finally {
    server.closeAllConnections();
    server.close();
  }
});

test('plain fetch, against startTestService (the service in the test’s own process)', async () => {
  const svc = await startTestService();
  try {
    await acrossAStall(async () => {
      const response = await fetch(`${svc.url}/v1/contacts`, { headers: { authorization: `Bearer ${svc.credentials.accessToken}` } });
      await response.arrayBuffer(); // read whole, so that its connection goes back to the pool
      return response.status;
    });
  } finally {
    await svc.close();
  }
});
