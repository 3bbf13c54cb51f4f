import assert from 'node:assert/strict';
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

