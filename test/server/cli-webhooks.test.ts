import assert from 'node:assert/strict';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { Webhook as StandardWebhook } from 'standardwebhooks';
import { EVENT_TYPES } from '../../api/events.ts';
import { tempDataDir } from '../../testkit/data-folder.ts';
import { nodeEntry, spawnNode, stop, type Child } from '../../testkit/processes.ts';
import { waitFor } from '../../testkit/wait.ts';
import { Receiver } from '../helpers/receiver.ts';
import { cli, startServiceProcess, type ServiceProcess } from '../helpers/service-process.ts';
import { apiClient, embeddedOnly } from '../helpers/service.ts';

/**
 * `npm run -s trigger -- <type>` makes each event type; `npm run -s listen -- --forward-to <url>`
 * forwards the merchant's events, signed, prints them and the forward's answer, and removes its
 * endpoint when stopped. Against a running service (`npm start`'s process).
 */
const root = join(import.meta.dirname, '../..');
// The commands talk to `npm start`'s process over HTTP, whatever its engine: the embedded leg runs them.
describe('the webhook commands', embeddedOnly, () => {
  let dir: string;
  let service: ServiceProcess;
  const children: Child[] = [];
  before(async () => {
    dir = tempDataDir();
    service = await startServiceProcess(dir);
  });
  after(async () => {
    for (const child of children) await stop(child);
    await service.stop();
  });

  describe('trigger', () => {
    test('every event type of the table: the command makes each, in one run, and prints its id', () => {
      const types = Object.keys(EVENT_TYPES);
      const run = cli(dir, ['trigger', '--', ...types]);
      assert.equal(run.status, 0, run.stderr);
      const printed = run.stdout.trim().split('\n').map((line) => JSON.parse(line));
      assert.deepEqual(printed.map((p) => p.type), types);
      for (const line of printed) assert.match(line.event, /^evt_/, JSON.stringify(line));
      assert.equal(new Set(printed.map((p) => p.event)).size, types.length);
      assert.match(run.stderr, /Running: POST \/v1\//);
    });

    test('one type: one line', () => {
      const run = cli(dir, ['trigger', '--', 'contact.created']);
      assert.equal(run.status, 0, run.stderr);
      assert.equal(JSON.parse(run.stdout).type, 'contact.created');
    });

    test('an unknown type: the list of types, exit 2', () => {
      const run = cli(dir, ['trigger', '--', 'contact.created', 'payment_intent.paid']);
      assert.equal(run.status, 2);
      assert.match(run.stderr, /Unknown event type: payment_intent\.paid/);
      assert.match(run.stderr, /payment_intent\.succeeded/);
      assert.equal(run.stdout, '', 'nothing made when one type is unknown');
    });
  });

  describe('listen', () => {
    test('forwards each event, signed with the secret it prints; prints both ways; removes its endpoint on exit', async () => {
      const receiver = await Receiver.start();
      try {
        receiver.reply = (request) => (request.event.type === 'payment_intent.created' ? { status: 200 } : { status: 404 });
        const listen = spawnNode('listen', [...nodeEntry('server/cli/listen'), '--forward-to', receiver.url, '--events', 'payment_intent.created,payment_intent.succeeded'], {
          cwd: root,
          env: { CPE_DATA_DIR: dir },
        });
        children.push(listen);
        const [, secret, endpointId] = await listen.line(/Your webhook signing secret is (whsec_\S+) \(endpoint (we_\w+)/);
        const credentials = JSON.parse(cli(dir, ['credentials']).stdout);
        const api = apiClient(service.url);
        const listed = await api('GET', '/v1/webhook_endpoints', { token: credentials.licenceKey });
        assert.ok(listed.body.data.some((e: any) => e.id === endpointId && e.enabled_events.join() === 'payment_intent.created,payment_intent.succeeded'));

        const triggered = JSON.parse(cli(dir, ['trigger', '--', 'payment_intent.succeeded']).stdout);
        await receiver.until((r) => r.some((x) => x.id === triggered.event));
        await listen.line(new RegExp(`<--  \\[404\\] POST ${receiver.url.replaceAll('.', '\\.')} payment_intent\\.succeeded \\[${triggered.event}\\]`));
        await listen.line(/--> payment_intent\.created \[evt_/);
        await listen.line(/<--  \[200\] POST .* payment_intent\.created/);
        for (const request of receiver.received) {
          const headers = { 'webhook-id': request.id, 'webhook-timestamp': String(request.headers['webhook-timestamp']), 'webhook-signature': String(request.headers['webhook-signature']) };
          assert.equal((new StandardWebhook(secret).verify(request.body, headers) as { id: string }).id, request.id, 'the printed secret verifies the forwarded event');
        }
        assert.ok(receiver.received.every((r) => ['payment_intent.created', 'payment_intent.succeeded'].includes(r.event.type)), 'only the events asked for');
        // The forward's 404 was the endpoint's answer: a failed attempt, to be retried.
        // Recorded after the answer (in the service, which announces nothing): polled.
        const attempt = await waitFor('the attempt recorded', async () => (await api('GET', `/v1/webhook_endpoints/${endpointId}/attempts?event=${triggered.event}`, { token: credentials.licenceKey })).body.data[0]);
        assert.equal(attempt.status_code, 404);

        listen.proc.kill('SIGINT');
        await listen.line(/Removed the temporary endpoint/);
        await listen.exited;
        assert.equal((await api('GET', `/v1/webhook_endpoints/${endpointId}`, { token: credentials.licenceKey })).status, 404);
      } finally {
        await receiver.close();
      }
    });

    test('without --forward-to: usage, exit 2', () => {
      const run = cli(dir, ['listen']);
      assert.equal(run.status, 2);
      assert.match(run.stderr, /--forward-to/);
    });
  });
});
