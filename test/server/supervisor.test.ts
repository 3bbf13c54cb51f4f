/**
 * The Supervisor of CPE_PROCESSES workers, on a controllable clock with workers the test makes die:
 * a worker that exits at start or later is replaced after a growing backoff (reset by a stable run);
 * the service is up from the first ready worker and stays up while any serves; only every worker
 * dying before it is ready, time after time, stops it, naming the last error.
 * (test/server/workers.test.ts runs the real thing: node:cluster, PostgreSQL, killed workers.)
 */
import assert from 'node:assert/strict';
import { EventEmitter } from 'node:events';
import { afterEach, beforeEach, describe, mock, test } from 'node:test';
import { Supervisor, type SupervisedWorker, type SupervisorOptions } from '../../server/supervisor.ts';

class FakeWorker extends EventEmitter implements SupervisedWorker {
  static next = 100;
  readonly process = { pid: FakeWorker.next++ };
  killed?: string;
  kill(signal = 'SIGTERM') {
    this.killed = signal;
    queueMicrotask(() => this.exit(null, signal));
  }
  ready() {
    this.emit('message', { type: 'cpe:ready', url: 'http://127.0.0.1:4242', credentials: {} });
  }
  fail(error: string) {
    this.emit('message', { type: 'cpe:failed', error });
  }
  exit(code: number | null, signal: string | null = null) {
    this.emit('exit', code, signal);
  }
}

function harness(count: number, options: Partial<SupervisorOptions> = {}) {
  const workers: FakeWorker[] = [];
  /** What each fork was told: whether another worker served (what it said when ready). */
  const told: Parameters<SupervisorOptions['fork']>[0][] = [];
  const said: string[] = [];
  const events: string[] = [];
  const supervisor = new Supervisor({
    count,
    fork: (serving) => {
      told.push(serving);
      const worker = new FakeWorker();
      workers.push(worker);
      return worker;
    },
    say: (line) => said.push(line),
    onUp: () => events.push('up'),
    onGiveUp: (reason) => events.push(`gave up: ${reason}`),
    random: () => 1, // no jitter: the waits are exact
    ...options,
  });
  supervisor.start();
  /** The workers running now (the newest of each slot). */
  const running = () => workers.filter((w) => supervisor.pids.includes(w.process.pid));
  return { supervisor, workers, said, events, running, told };
}

beforeEach(() => mock.timers.enable({ apis: ['setTimeout', 'Date'] }));
afterEach(() => mock.timers.reset());

describe('the Supervisor of CPE_PROCESSES workers', () => {
  test('a worker dying during start-up is replaced after a backoff, and the service comes up (it used to stop the service)', () => {
    const { workers, said, events, running, told } = harness(2);
    workers[0].ready();
    assert.deepEqual(events, [], 'not up while the other first worker may still start');
    workers[1].fail('boom');
    workers[1].exit(1);
    assert.deepEqual(events, ['up'], 'up: one serves, and the other has died');
    assert.match(said.at(-2)!, new RegExp(`CPE worker ${workers[1].process.pid} exited \\(1\\): starting another in 250 ms \\(it died before it was ready, 1 time in a row\\)`));
    assert.equal(said.at(-1), 'CPE 1 of 2 workers serving.', 'how many serve as it comes up');
    assert.equal(workers.length, 2, 'not before the backoff');
    mock.timers.tick(249);
    assert.equal(workers.length, 2);
    mock.timers.tick(1);
    assert.equal(workers.length, 3, 'replaced after 250 ms');
    assert.deepEqual(told.map((serving) => serving?.url), [undefined, undefined, 'http://127.0.0.1:4242'], 'the replacement joins the serving workers once ready');
    workers[2].ready();
    assert.deepEqual(running().map((w) => w.process.pid), [workers[0].process.pid, workers[2].process.pid]);
    assert.match(said.at(-1)!, /is ready \(2 of 2 serving\)/);
    assert.deepEqual(events, ['up'], 'never given up');
  });

  test('the backoff doubles while a slot keeps failing, up to its maximum, and a stable run resets it', () => {
    const { workers, said } = harness(1, { backoff: { initialMs: 100, maxMs: 1_000 }, stableMs: 5_000 });
    workers[0].ready();
    const waits: number[] = [];
    for (let i = 0; i < 6; i++) {
      const worker = workers.at(-1)!;
      worker.ready();
      mock.timers.tick(10); // served 10 ms: not a stable run
      worker.exit(null, 'SIGKILL');
      const wait = Number(/starting another in (\d+) ms/.exec(said.at(-1)!)![1]);
      waits.push(wait);
      mock.timers.tick(wait);
    }
    assert.deepEqual(waits, [100, 200, 400, 800, 1_000, 1_000]);
    const stable = workers.at(-1)!;
    stable.ready();
    mock.timers.tick(5_000);
    stable.exit(null, 'SIGKILL');
    assert.match(said.at(-1)!, /exited \(SIGKILL\): starting another in 100 ms \(it had served 5 s\)/);
  });

  test('a worker that keeps dying at start does not stop the service while another serves', () => {
    const { workers, events, said } = harness(2, { giveUpAfter: 3 });
    workers[0].ready();
    for (let i = 0; i < 10; i++) {
      const starting = workers.at(-1)!;
      starting.exit(1);
      mock.timers.tick(60_000);
    }
    assert.deepEqual(events, ['up']);
    assert.equal(said.filter((line) => /died before it was ready/.test(line)).length, 10);
    assert.match(said.at(-1)!, /10 times in a row/);
  });

  test('the service is up once every first worker serves', () => {
    const { workers, events } = harness(3);
    workers[2].ready();
    workers[0].ready();
    assert.deepEqual(events, []);
    workers[1].ready();
    assert.deepEqual(events, ['up']);
  });

  test('every worker dying before it is ready, time after time, stops the service with the last error', () => {
    const { workers, events, told } = harness(2, { giveUpAfter: 3 });
    for (let round = 1; round <= 3; round++) {
      const [a, b] = workers.slice(-2);
      a.fail(`port taken (a, round ${round})`);
      a.exit(1);
      if (round === 3) assert.deepEqual(events, [], 'not while the other may still start');
      b.fail(`port taken (b, round ${round})`);
      b.exit(1);
      mock.timers.tick(60_000);
    }
    assert.deepEqual(events, ['gave up: every worker died before it was ready, 3 times in a row (is the configuration broken?). The last error: port taken (b, round 3)']);
    const count = workers.length;
    mock.timers.tick(60_000);
    assert.equal(workers.length, count, 'nothing starts after giving up');
    assert.ok(told.every((serving) => serving === undefined), 'with nobody serving, each worker answers 503 while it starts');
  });

  test('stop ends every worker and starts no other', async () => {
    const { supervisor, workers } = harness(3);
    for (const worker of workers) worker.ready();
    await supervisor.stop();
    assert.deepEqual(workers.map((w) => w.killed), ['SIGTERM', 'SIGTERM', 'SIGTERM']);
    mock.timers.tick(60_000);
    assert.equal(workers.length, 3);
  });
});
