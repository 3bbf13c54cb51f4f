import assert from 'node:assert/strict';
import { Receiver } from '../helpers/receiver.ts';
import type { Api } from '../helpers/service.ts';
import { expectStatus } from './harness.ts';

/**
 * The model suites' check of the event log against the objects: every change committed is exactly
 * one event, and nothing that did not commit is one. An object's events, oldest first, are a chain:
 * the first is `<type>.created`; each later one, undone by its `previous_attributes`, is the object of
 * the one before (so no change is missing or told twice); a `.deleted` one carries the object as it
 * was; and the last is the object as the API answers it now.
 */

type Json = Record<string, any>;

/** Every event of the owner of `token`, oldest first, by the id of its object. */
export async function eventsByObject(api: Api, token: string): Promise<Map<string, Json[]>> {
  const events: Json[] = [];
  let cursor: string | undefined;
  for (;;) {
    const page = await api('GET', `/v1/events?limit=100${cursor ? `&starting_after=${cursor}` : ''}`, { token });
    expectStatus(page, 200, 'GET /v1/events');
    events.push(...page.body.data);
    if (!page.body.has_more) break;
    cursor = page.body.data.at(-1).id;
  }
  const byObject = new Map<string, Json[]>();
  for (const event of events.reverse()) {
    const id = event.data.object.id as string;
    byObject.set(id, [...(byObject.get(id) ?? []), event]);
  }
  return byObject;
}

/** The object before a change: `after` with `previous` (Stripe's previous_attributes) put back, nested objects field by field. */
export function undo(after: Json, previous: Json): Json {
  const before: Json = { ...after };
  for (const [key, value] of Object.entries(previous)) {
    const now = after[key];
    const nested = value !== null && typeof value === 'object' && !Array.isArray(value) && now !== null && typeof now === 'object' && !Array.isArray(now);
    before[key] = nested ? undo(now, value) : value;
  }
  return before;
}

/**
 * Checks one object's chain of events; `now` is the object as the API answers it (null: deleted).
 * Answers the chain's types, oldest first.
 */
export function checkChain(id: string, events: Json[] | undefined, now: Json | null): string[] {
  assert.ok(events?.length, `${id} has no event: its creation committed without one`);
  assert.equal(events[0].type, `${events[0].data.object.object}.created`, `the first event of ${id}`);
  assert.equal(events[0].data.previous_attributes, undefined, `${id}: a created object has no previous_attributes`);
  for (let i = 1; i < events.length; i++) {
    const [was, event]: Json[] = [events[i - 1], events[i]];
    assert.ok(!was.type.endsWith('.deleted'), `${id}: ${event.type} after its deletion`);
    if (event.type.endsWith('.deleted')) assert.deepEqual(event.data.object, was.data.object, `${id}: deleted as it was`);
    else {
      assert.ok(event.data.previous_attributes, `${id}: ${event.type} (${event.id}) says what it changed`);
      assert.deepEqual(undo(event.data.object, event.data.previous_attributes), was.data.object, `${id}: ${event.type} (${event.id}) undone is the event before it (${was.id})`);
    }
  }
  const last = events.at(-1)!;
  if (now === null) assert.ok(last.type.endsWith('.deleted'), `${id} is gone: its last event is ${last.type}`);
  else assert.deepEqual(last.data.object, now, `${id}: its last event holds it as the API answers it now`);
  return events.map((e) => e.type);
}

/**
 * A webhook endpoint of the model's owner on a receiver in the test process that answers 200: every
 * event of the log is delivered at least once (whatever restart or kill -9 came between the change
 * and its delivery), and nothing is delivered that the log does not hold (a change that did not
 * commit).
 */
export class Deliveries {
  #receiver?: Receiver;

  async register(api: Api, token: string): Promise<void> {
    this.#receiver ??= await Receiver.start();
    const made = await api('POST', '/v1/webhook_endpoints', { token, json: { url: this.#receiver.url, enabled_events: ['*'] } });
    expectStatus(made, 200, 'create the webhook endpoint');
  }

  /** Waits until every event of `events` was answered 200; then checks that every delivery is of one of them. */
  async check(events: Map<string, Json[]>): Promise<void> {
    const receiver = this.#receiver!;
    const ids = [...events.values()].flat().map((e) => e.id as string);
    await receiver.until(() => ids.every((id) => receiver.delivered().has(id)));
    const logged = new Set(ids);
    for (const request of receiver.received) assert.ok(logged.has(request.id), `${request.id} (${request.event.type}) was delivered, and is not in the event log`);
  }

  close(): Promise<void> | undefined {
    return this.#receiver?.close();
  }
}
