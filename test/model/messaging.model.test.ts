import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import fc from 'fast-check';
import { idPosition } from '../../server/identity/ids.ts';
import type { ApiResponse } from '../helpers/service.ts';
import { checkChain, Deliveries, eventsByObject } from './event-log.ts';
import { checkModel, commandOptions, expectStatus, Service, settings } from './harness.ts';
import { scaled } from '../../testkit/time.ts';

/**
 * Model-based test of the messaging API: random sequences of operations (contacts, conversations,
 * pin / mute / archive, messages, every list walked with cursors that may be deleted, concurrent
 * batches, one idempotency key raced, clean restarts, kill -9 after an answer and kill -9 while
 * writes are in flight) against a real service process, each answer checked against a small
 * reference model, and the whole state compared after every restart and at the end, with the event
 * log: each object's events chained up to it as it is answered now (a deleted one's ending in
 * `.deleted`), one `message.created` per message, no event for an unanswered create that did not
 * commit, and every event delivered to a webhook endpoint (event-log.ts). The model is
 * independent of the service's code but for one documented fact: an id carries its place in the
 * lists (identity/ids.ts), which orders objects made concurrently.
 *
 * MODEL_RUNS / MODEL_MESSAGING_RUNS, MODEL_STEPS / MODEL_MESSAGING_STEPS, MODEL_SEED, MODEL_PATH.
 */

interface MContact {
  id: string;
  username: string;
  display_name: string | null;
  conversation_id: string | null;
  active: boolean;
}
interface MConversation {
  id: string;
  contact_id: string | null;
  group_id: string | null;
  is_pinned: boolean;
  is_muted: boolean;
  archived: boolean;
  pinned_message_id: string | null;
  active: boolean;
}
interface MMessage {
  id: string;
  conversation_id: string;
  text: string;
  sender: 'user' | 'contact';
}

const position = (id: string) => {
  const at = idPosition(id);
  assert.notEqual(at, undefined, `${id} carries no position`);
  return at!;
};
const newestFirst = <T extends { id: string }>(rows: Iterable<T>) => [...rows].sort((a, b) => position(b.id) - position(a.id));

class Model {
  contacts = new Map<string, MContact>();
  conversations = new Map<string, MConversation>();
  messages = new Map<string, MMessage>();
  /** Every id ever answered, deleted ones too: picks for reads, deletes and cursors. */
  seen = { contacts: [] as string[], conversations: [] as string[], messages: [] as string[] };
  /** Highest position answered to a sequential create: the next must be higher (lists are in creation order). */
  lastPosition = 0;

  addContact(body: { id: string; username: string; conversation_id: string }) {
    this.contacts.set(body.id, { id: body.id, username: body.username, display_name: null, conversation_id: body.conversation_id, active: false });
    this.addConversation(body.conversation_id, body.id, null);
    this.seen.contacts.push(body.id);
  }

  addConversation(id: string, contactId: string | null, groupId: string | null) {
    this.conversations.set(id, { id, contact_id: contactId, group_id: groupId, is_pinned: false, is_muted: false, archived: false, pinned_message_id: null, active: false });
    this.seen.conversations.push(id);
  }

  addMessage(body: MMessage) {
    this.messages.set(body.id, body);
    this.seen.messages.push(body.id);
    const conversation = this.conversations.get(body.conversation_id)!;
    conversation.active = true;
    if (conversation.contact_id !== null) {
      const contact = this.contacts.get(conversation.contact_id);
      if (contact) contact.active = true;
    }
  }

  deleteConversation(id: string) {
    const conversation = this.conversations.get(id)!;
    for (const message of [...this.messages.values()]) if (message.conversation_id === id) this.messages.delete(message.id);
    this.conversations.delete(id);
    const contact = conversation.contact_id === null ? undefined : this.contacts.get(conversation.contact_id);
    if (contact?.conversation_id === id) contact.conversation_id = null;
  }

  deleteContact(id: string) {
    const contact = this.contacts.get(id)!;
    if (contact.conversation_id !== null) this.deleteConversation(contact.conversation_id);
    this.contacts.delete(id);
  }

  sequentialCreate(id: string) {
    const at = position(id);
    assert.ok(at > this.lastPosition, `${id} was made after an object with a later place in the lists`);
    this.lastPosition = at;
  }
}

interface Real {
  svc: Service;
  token: string;
}

const pick = (list: string[], index: number) => list[index % list.length];
let names = 0;
const MAX_RESTARTS_PER_RUN = 2;

function checkContact(real: MContact, body: any) {
  assert.deepEqual(
    { id: body.id, username: body.username, display_name: body.display_name, conversation_id: body.conversation_id, active: body.last_active_at !== null },
    { id: real.id, username: real.username, display_name: real.display_name, conversation_id: real.conversation_id, active: real.active },
  );
}

function checkConversation(model: MConversation, body: any) {
  assert.deepEqual(
    {
      id: body.id,
      contact_id: body.contact_id,
      group_id: body.group_id,
      is_pinned: body.is_pinned,
      is_muted: body.is_muted,
      archived: body.archived_at !== null,
      pinned_message_id: body.pinned_message_id,
      active: body.last_active_at !== null,
    },
    { ...model },
  );
}

/** Walks a list with `starting_after` from `cursor`, checking each page's has_more, and returns every object. */
async function walk(r: Real, path: string, limit: number, expected: string[], cursor?: string): Promise<any[]> {
  const out: any[] = [];
  for (;;) {
    const sep = path.includes('?') ? '&' : '?';
    const res = await r.svc.api('GET', `${path}${sep}limit=${limit}${cursor ? `&starting_after=${cursor}` : ''}`, { token: r.token });
    expectStatus(res, 200, `GET ${path}`);
    out.push(...res.body.data);
    assert.equal(res.body.has_more, out.length < expected.length, `has_more of a page of ${path} after ${cursor ?? 'the start'}`);
    if (!res.body.has_more || res.body.data.length === 0) return out;
    cursor = res.body.data.at(-1).id;
  }
}

/** After the cursor's place (all of them without one), newest first. */
const after_ = <T extends { id: string }>(rows: T[], cursor?: string) => (cursor === undefined ? rows : rows.filter((row) => position(row.id) < position(cursor)));

async function checkAll(m: Model, r: Real) {
  const contacts = newestFirst(m.contacts.values());
  const listed = await walk(r, '/v1/contacts', 100, contacts.map((c) => c.id));
  assert.deepEqual(listed.map((c) => c.id), contacts.map((c) => c.id), 'every contact, in order');
  listed.forEach((body, i) => checkContact(contacts[i], body));
  const conversations = newestFirst(m.conversations.values());
  const listedConversations = await walk(r, '/v1/conversations', 100, conversations.map((c) => c.id));
  assert.deepEqual(listedConversations.map((c) => c.id), conversations.map((c) => c.id), 'every conversation, in order');
  listedConversations.forEach((body, i) => checkConversation(conversations[i], body));
  const listedMessages: any[] = [];
  for (const conversation of conversations) {
    const messages = newestFirst([...m.messages.values()].filter((message) => message.conversation_id === conversation.id));
    const listed = await walk(r, `/v1/conversations/${conversation.id}/messages`, 100, messages.map((x) => x.id));
    assert.deepEqual(listed.map((x) => [x.id, x.text, x.sender]), messages.map((x) => [x.id, x.text, x.sender]), `messages of ${conversation.id}`);
    listedMessages.push(...listed);
  }
  // The event log agrees: every object's chain of events ends in it as listed, or in its deletion;
  // and every event is delivered to the webhook endpoint.
  const events = await eventsByObject(r.svc.api, r.token);
  await deliveries.check(events);
  const now = new Map([...listed, ...listedConversations, ...listedMessages].map((body) => [body.id as string, body]));
  for (const id of [...m.seen.contacts, ...m.seen.conversations]) checkChain(id, events.get(id), now.get(id) ?? null);
  for (const id of m.seen.messages) {
    assert.deepEqual(events.get(id)?.map((e) => e.type), ['message.created'], `the events of message ${id}`);
    if (now.has(id)) assert.deepEqual(events.get(id)![0].data.object, now.get(id));
  }
}

type Cmd = fc.AsyncCommand<Model, Real>;

class CreateContact implements Cmd {
  check = () => true;
  async run(m: Model, r: Real) {
    const username = `u${names++}`;
    const res = await r.svc.api('POST', '/v1/contacts', { token: r.token, form: { username, phone_number: '+44 20 7946 0958' } });
    expectStatus(res, 200, 'create contact');
    assert.equal(res.body.username, username);
    m.sequentialCreate(res.body.id);
    m.addContact(res.body);
  }
  toString = () => 'CreateContact';
}

class GetContact implements Cmd {
  constructor(readonly i: number) {}
  check = (m: Readonly<Model>) => m.seen.contacts.length > 0;
  async run(m: Model, r: Real) {
    const id = pick(m.seen.contacts, this.i);
    const res = await r.svc.api('GET', `/v1/contacts/${id}`, { token: r.token });
    const model = m.contacts.get(id);
    expectStatus(res, model ? 200 : 404, `GET contact ${id}`);
    if (model) checkContact(model, res.body);
  }
  toString = () => `GetContact(${this.i})`;
}

class RenameContact implements Cmd {
  constructor(readonly i: number, readonly name: string | null) {}
  check = (m: Readonly<Model>) => m.seen.contacts.length > 0;
  async run(m: Model, r: Real) {
    const id = pick(m.seen.contacts, this.i);
    const res = await r.svc.api('PUT', `/v1/contacts/${id}`, { token: r.token, json: { display_name: this.name } });
    const model = m.contacts.get(id);
    expectStatus(res, model ? 200 : 404, `rename contact ${id}`);
    if (model) {
      model.display_name = this.name;
      checkContact(model, res.body);
    }
  }
  toString = () => `RenameContact(${this.i}, ${JSON.stringify(this.name)})`;
}

class DeleteContact implements Cmd {
  constructor(readonly i: number) {}
  check = (m: Readonly<Model>) => m.seen.contacts.length > 0;
  async run(m: Model, r: Real) {
    const id = pick(m.seen.contacts, this.i);
    const res = await r.svc.api('DELETE', `/v1/contacts/${id}`, { token: r.token });
    expectStatus(res, m.contacts.has(id) ? 200 : 404, `delete contact ${id}`);
    if (m.contacts.has(id)) m.deleteContact(id);
  }
  toString = () => `DeleteContact(${this.i})`;
}

class CreateGroup implements Cmd {
  constructor(readonly group: string) {}
  check = () => true;
  async run(m: Model, r: Real) {
    const res = await r.svc.api('POST', '/v1/conversations', { token: r.token, form: { group_id: this.group } });
    const exists = [...m.conversations.values()].some((c) => c.group_id === this.group);
    expectStatus(res, exists ? 409 : 200, `create group ${this.group}`);
    if (!exists) {
      m.sequentialCreate(res.body.id);
      m.addConversation(res.body.id, null, this.group);
    }
  }
  toString = () => `CreateGroup(${this.group})`;
}

class CreateContactConversation implements Cmd {
  constructor(readonly i: number) {}
  check = (m: Readonly<Model>) => m.seen.contacts.length > 0;
  async run(m: Model, r: Real) {
    const id = pick(m.seen.contacts, this.i);
    const res = await r.svc.api('POST', '/v1/conversations', { token: r.token, form: { contact_id: id } });
    const contact = m.contacts.get(id);
    expectStatus(res, !contact ? 404 : contact.conversation_id !== null ? 409 : 200, `conversation for ${id}`);
    if (contact && contact.conversation_id === null) {
      m.sequentialCreate(res.body.id);
      m.addConversation(res.body.id, id, null);
      contact.conversation_id = res.body.id;
    }
  }
  toString = () => `CreateContactConversation(${this.i})`;
}

class UpdateConversation implements Cmd {
  constructor(readonly i: number, readonly patch: { is_pinned?: boolean; is_muted?: boolean; archived?: boolean }, readonly asForm: boolean) {}
  check = (m: Readonly<Model>) => m.seen.conversations.length > 0;
  async run(m: Model, r: Real) {
    const id = pick(m.seen.conversations, this.i);
    const form = Object.fromEntries(Object.entries(this.patch).map(([k, v]) => [k, String(v)]));
    const res = await r.svc.api('PUT', `/v1/conversations/${id}`, { token: r.token, ...(this.asForm ? { form } : { json: this.patch }) });
    const model = m.conversations.get(id);
    expectStatus(res, model ? 200 : 404, `update conversation ${id}`);
    if (model) {
      Object.assign(model, this.patch);
      checkConversation(model, res.body);
    }
  }
  toString = () => `UpdateConversation(${this.i}, ${JSON.stringify(this.patch)}, ${this.asForm ? 'form' : 'json'})`;
}

class PinMessage implements Cmd {
  constructor(readonly i: number, readonly j: number | null) {}
  check = (m: Readonly<Model>) => m.seen.conversations.length > 0 && (this.j === null || m.seen.messages.length > 0);
  async run(m: Model, r: Real) {
    const id = pick(m.seen.conversations, this.i);
    const messageId = this.j === null ? null : pick(m.seen.messages, this.j);
    const res = await r.svc.api('PUT', `/v1/conversations/${id}`, { token: r.token, json: { pinned_message_id: messageId } });
    const model = m.conversations.get(id);
    const ok = model !== undefined && (messageId === null || m.messages.get(messageId)?.conversation_id === id);
    expectStatus(res, ok ? 200 : 404, `pin ${messageId} in ${id}`);
    if (ok) {
      model!.pinned_message_id = messageId;
      checkConversation(model!, res.body);
    }
  }
  toString = () => `PinMessage(${this.i}, ${this.j})`;
}

class DeleteConversation implements Cmd {
  constructor(readonly i: number) {}
  check = (m: Readonly<Model>) => m.seen.conversations.length > 0;
  async run(m: Model, r: Real) {
    const id = pick(m.seen.conversations, this.i);
    const res = await r.svc.api('DELETE', `/v1/conversations/${id}`, { token: r.token });
    expectStatus(res, m.conversations.has(id) ? 200 : 404, `delete conversation ${id}`);
    if (m.conversations.has(id)) m.deleteConversation(id);
  }
  toString = () => `DeleteConversation(${this.i})`;
}

class PostMessage implements Cmd {
  constructor(readonly i: number, readonly text: string, readonly sender: 'user' | 'contact') {}
  check = (m: Readonly<Model>) => m.seen.conversations.length > 0;
  async run(m: Model, r: Real) {
    const id = pick(m.seen.conversations, this.i);
    const res = await r.svc.api('POST', `/v1/conversations/${id}/messages`, { token: r.token, json: { text: this.text, sender: this.sender } });
    expectStatus(res, m.conversations.has(id) ? 200 : 404, `message to ${id}`);
    if (m.conversations.has(id)) {
      assert.deepEqual([res.body.conversation_id, res.body.text, res.body.sender], [id, this.text, this.sender]);
      m.sequentialCreate(res.body.id);
      m.addMessage({ id: res.body.id, conversation_id: id, text: this.text, sender: this.sender });
    }
  }
  toString = () => `PostMessage(${this.i}, ${JSON.stringify(this.text)}, ${this.sender})`;
}

/** Walks a list from the start or from any id ever seen (deleted ones too), checking every object and has_more. */
class WalkList implements Cmd {
  constructor(readonly list: 'contacts' | 'conversations' | 'messages', readonly limit: number, readonly filter: boolean | undefined, readonly cursor: number | null, readonly of: number) {}
  check = (m: Readonly<Model>) => (this.cursor === null || m.seen[this.list].length > 0) && (this.list !== 'messages' || m.seen.conversations.length > 0);
  async run(m: Model, r: Real) {
    const cursor = this.cursor === null ? undefined : pick(m.seen[this.list], this.cursor);
    let path: string;
    let expected: { id: string }[];
    if (this.list === 'contacts') {
      path = `/v1/contacts${this.filter === undefined ? '' : `?active=${this.filter}`}`;
      expected = newestFirst([...m.contacts.values()].filter((c) => this.filter === undefined || c.active === this.filter));
    } else if (this.list === 'conversations') {
      path = `/v1/conversations${this.filter === undefined ? '' : `?archived=${this.filter}`}`;
      expected = newestFirst([...m.conversations.values()].filter((c) => this.filter === undefined || c.archived === this.filter));
    } else {
      const conversation = pick(m.seen.conversations, this.of);
      path = `/v1/conversations/${conversation}/messages`;
      if (!m.conversations.has(conversation)) {
        const res = await r.svc.api('GET', `${path}?limit=${this.limit}`, { token: r.token });
        return expectStatus(res, 404, `messages of deleted ${conversation}`);
      }
      expected = newestFirst([...m.messages.values()].filter((x) => x.conversation_id === conversation));
    }
    const want = after_(expected, cursor).map((x) => x.id);
    const got = await walk(r, path, this.limit, want, cursor);
    assert.deepEqual(got.map((x) => x.id), want, `${path} after ${cursor ?? 'the start'}`);
  }
  toString = () => `WalkList(${this.list}, limit ${this.limit}, filter ${this.filter}, cursor ${this.cursor}, of ${this.of})`;
}

/** One page towards the newest with `ending_before` (a cursor that may be deleted). */
class PageBack implements Cmd {
  constructor(readonly limit: number, readonly cursor: number) {}
  check = (m: Readonly<Model>) => m.seen.contacts.length > 0;
  async run(m: Model, r: Real) {
    const cursor = pick(m.seen.contacts, this.cursor);
    const newer = newestFirst(m.contacts.values()).filter((c) => position(c.id) > position(cursor));
    const want = newer.slice(Math.max(0, newer.length - this.limit));
    const res = await r.svc.api('GET', `/v1/contacts?limit=${this.limit}&ending_before=${cursor}`, { token: r.token });
    expectStatus(res, 200, 'ending_before');
    assert.deepEqual(res.body.data.map((c: { id: string }) => c.id), want.map((c) => c.id), `before ${cursor}`);
    assert.equal(res.body.has_more, newer.length > this.limit);
  }
  toString = () => `PageBack(limit ${this.limit}, cursor ${this.cursor})`;
}

/**
 * Creates, messages and contact deletes sent at once: every one answered as the model allows in some
 * order (a message racing the delete of its conversation may land first, then go with it, or be a
 * 404), and the lists hold exactly the outcome afterwards.
 */
class ConcurrentBatch implements Cmd {
  constructor(readonly contacts: number, readonly messages: number[], readonly deletes: number[]) {}
  check = (m: Readonly<Model>) => (this.messages.length === 0 || m.seen.conversations.length > 0) && (this.deletes.length === 0 || m.seen.contacts.length > 0);
  async run(m: Model, r: Real) {
    const creates = Array.from({ length: this.contacts }, () =>
      r.svc.api('POST', '/v1/contacts', { token: r.token, form: { username: `b${names++}`, phone_number: '+441234567' } }),
    );
    const targets = this.messages.map((i) => pick(m.seen.conversations, i));
    const gone = [...new Set(this.deletes.map((i) => pick(m.seen.contacts, i)))];
    const goneConversations = new Set(gone.map((id) => m.contacts.get(id)?.conversation_id).filter((id) => id != null));
    const posts = targets.map((id, n) => r.svc.api('POST', `/v1/conversations/${id}/messages`, { token: r.token, form: { text: `batch ${n}` } }));
    const deletes = gone.map((id) => r.svc.api('DELETE', `/v1/contacts/${id}`, { token: r.token }));
    const [made, posted, deleted] = await Promise.all([Promise.all(creates), Promise.all(posts), Promise.all(deletes)]);
    for (const res of made) {
      expectStatus(res, 200, 'concurrent create');
      m.addContact(res.body);
    }
    posted.forEach((res: ApiResponse, n) => {
      const target = targets[n];
      if (goneConversations.has(target)) return assert.ok([200, 404].includes(res.status), `message racing its conversation's delete: ${res.status}`);
      expectStatus(res, m.conversations.has(target) ? 200 : 404, `concurrent message to ${target}`);
      if (res.status === 200) m.addMessage({ id: res.body.id, conversation_id: target, text: `batch ${n}`, sender: 'user' });
    });
    deleted.forEach((res: ApiResponse, n) => {
      expectStatus(res, m.contacts.has(gone[n]) ? 200 : 404, `concurrent delete of ${gone[n]}`);
      if (res.status === 200) m.deleteContact(gone[n]);
    });
    const ids = [...made, ...posted].filter((x) => x.status === 200).map((x) => x.body.id as string);
    m.lastPosition = Math.max(m.lastPosition, ...ids.map(position));
  }
  toString = () => `ConcurrentBatch(${this.contacts} contacts, messages to ${JSON.stringify(this.messages)}, deletes ${JSON.stringify(this.deletes)})`;
}

/** One idempotency key raced: every answer the same contact, made once. */
class RaceOneKey implements Cmd {
  constructor(readonly copies: number) {}
  check = () => true;
  async run(m: Model, r: Real) {
    const key = `race-${names}-${Math.random()}`;
    const username = `k${names++}`;
    const answers = await Promise.all(
      Array.from({ length: this.copies }, () => r.svc.api('POST', '/v1/contacts', { token: r.token, headers: { 'X-Idempotency-Key': key }, form: { username, phone_number: '+441234567' } })),
    );
    for (const res of answers) expectStatus(res, 200, 'raced key');
    assert.equal(new Set(answers.map((a) => a.body.id)).size, 1, 'one contact for one key');
    m.sequentialCreate(answers[0].body.id);
    m.addContact(answers[0].body);
  }
  toString = () => `RaceOneKey(${this.copies})`;
}

class Restart implements Cmd {
  constructor(readonly signal: 'SIGKILL' | 'SIGTERM') {}
  check = (m: Readonly<Model> & { restarts?: number }) => (m.restarts ?? 0) < MAX_RESTARTS_PER_RUN;
  async run(m: Model & { restarts?: number }, r: Real) {
    m.restarts = (m.restarts ?? 0) + 1;
    await r.svc.restart(this.signal);
    await checkAll(m, r);
  }
  toString = () => `Restart(${this.signal === 'SIGKILL' ? 'kill -9' : 'clean'})`;
}

/** kill -9 while creates are in flight: every acknowledged one survives; an unanswered one may or may not. */
class KillDuringCreates implements Cmd {
  constructor(readonly count: number) {}
  check = (m: Readonly<Model> & { restarts?: number }) => (m.restarts ?? 0) < MAX_RESTARTS_PER_RUN;
  async run(m: Model & { restarts?: number }, r: Real) {
    m.restarts = (m.restarts ?? 0) + 1;
    const usernames = Array.from({ length: this.count }, () => `d${names++}`);
    const settled = await r.svc.killDuring(usernames.map((username) => () => r.svc.api('POST', '/v1/contacts', { token: r.token, form: { username, phone_number: '+441234567' } })));
    const acknowledged = new Set<string>();
    for (const result of settled) {
      if (result.status === 'fulfilled' && result.value.status === 200) {
        acknowledged.add(result.value.body.id);
        m.addContact(result.value.body);
      }
    }
    // The rest were unanswered: each is in the lists entirely (contact and conversation) or not at all.
    const unanswered = new Set(usernames.filter((u) => ![...m.contacts.values()].some((c) => c.username === u)));
    const all = await walk(r, '/v1/contacts', 100, []).catch(() => [] as any[]);
    for (const body of all) {
      if (m.contacts.has(body.id)) continue;
      assert.ok(unanswered.has(body.username), `contact ${body.id} (${body.username}) appeared from nowhere`);
      m.addContact(body);
    }
    for (const id of acknowledged) assert.ok(all.some((c) => c.id === id), `acknowledged contact ${id} lost by kill -9`);
    // A create that did not commit has no event either.
    const lost = new Set([...unanswered].filter((u) => !all.some((c) => c.username === u)));
    for (const [, chain] of await eventsByObject(r.svc.api, r.token))
      assert.ok(!(chain[0].type === 'contact.created' && lost.has(chain[0].data.object.username)), `an event for ${chain[0].data.object.username}, never committed`);
    m.lastPosition = Math.max(m.lastPosition, ...all.map((c) => position(c.id)));
    await checkAll(m, r);
  }
  toString = () => `KillDuringCreates(${this.count})`;
}

const index = fc.nat({ max: 1000 });
const commands = [
  fc.constant(new CreateContact()),
  index.map((i) => new GetContact(i)),
  fc.tuple(index, fc.option(fc.stringMatching(/^[A-Za-z][A-Za-z .'-]{0,20}$/), { nil: null })).map(([i, n]) => new RenameContact(i, n)),
  index.map((i) => new DeleteContact(i)),
  fc.constantFrom('g1', 'g2', 'g3').map((g) => new CreateGroup(g)),
  index.map((i) => new CreateContactConversation(i)),
  fc
    .tuple(index, fc.record({ is_pinned: fc.boolean(), is_muted: fc.boolean(), archived: fc.boolean() }, { requiredKeys: [] }), fc.boolean())
    .map(([i, p, f]) => new UpdateConversation(i, p, f)),
  fc.tuple(index, fc.option(index, { nil: null })).map(([i, j]) => new PinMessage(i, j)),
  index.map((i) => new DeleteConversation(i)),
  fc.tuple(index, fc.constantFrom('hi', 'two\nlines', 'tab\there', 'émoji ✓'), fc.constantFrom('user' as const, 'contact' as const)).map(([i, t, s]) => new PostMessage(i, t, s)),
  fc
    .tuple(fc.constantFrom('contacts' as const, 'conversations' as const, 'messages' as const), fc.integer({ min: 1, max: 4 }), fc.option(fc.boolean(), { nil: undefined }), fc.option(index, { nil: null }), index)
    .map(([l, n, f, c, o]) => new WalkList(l, n, l === 'messages' ? undefined : f, c, o)),
  fc.tuple(fc.integer({ min: 1, max: 3 }), index).map(([n, c]) => new PageBack(n, c)),
  fc.tuple(fc.integer({ min: 0, max: 4 }), fc.array(index, { maxLength: 4 }), fc.array(index, { maxLength: 3 })).map(([n, ms, ds]) => new ConcurrentBatch(n, ms, ds)),
  fc.integer({ min: 2, max: 4 }).map((n) => new RaceOneKey(n)),
  fc.constantFrom('SIGKILL' as const, 'SIGTERM' as const).map((s) => new Restart(s)),
  fc.integer({ min: 2, max: 6 }).map((n) => new KillDuringCreates(n)),
];

const svc = new Service();
const deliveries = new Deliveries();
before(async () => {
  await svc.start();
  await deliveries.register(svc.api, svc.credentials.accessToken);
});
after(async () => {
  await svc.stop();
  await deliveries.close();
});

/** Each run starts from an empty address book: everything an earlier run left is deleted first. */
async function emptyAddressBook(r: Real): Promise<void> {
  for (const list of ['/v1/contacts', '/v1/conversations']) {
    for (;;) {
      const page = await r.svc.api('GET', `${list}?limit=100`, { token: r.token });
      if (page.body.data.length === 0) break;
      await Promise.all(page.body.data.map((x: { id: string }) => r.svc.api('DELETE', `${list}/${x.id}`, { token: r.token })));
    }
  }
}

test('messaging: random operation sequences agree with the model, through concurrency and kill -9', { timeout: scaled(30 * 60_000) }, async () => {
  const runs = settings.runs('MESSAGING', 15);
  const steps = settings.steps('MESSAGING', 40);
  const property = fc.asyncProperty(fc.commands(commands, commandOptions(steps)), async (cmds) => {
    const real: Real = { svc, token: svc.credentials.accessToken };
    await emptyAddressBook(real);
    const model = new Model();
    await fc.asyncModelRun(() => ({ model, real }), cmds);
    await checkAll(model, real);
  });
  await checkModel(import.meta.filename, 'messaging', property, runs);
  console.log(`# model messaging: ${svc.restarts} restarts of the service process`);
});
