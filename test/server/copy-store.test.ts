import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { COLLECTIONS } from '../../server/store/copy-store.ts';
import { openStore } from '../../server/store/open-store.ts';
import { readDataFolder, tempDataDir } from '../../testkit/data-folder.ts';
import { freshTestDatabase } from '../../testkit/postgres.ts';
import { npmRunSync } from '../../testkit/processes.ts';
import { startTestService, testEngine } from '../helpers/service.ts';
import { answerChallenge, CARDS, createIntent, tokenOf } from './payments-fixtures.ts';

const onPostgres = { skip: testEngine() !== 'postgres' ? 'PostgreSQL leg only (CPE_TEST_ENGINE=postgres)' : false };

/** `npm run -s copy-store -- --from <from> --to <to>`, its status and output. */
const copyStore = (from: string, to: string) => npmRunSync(['copy-store', '--', '--from', from, '--to', to]);

const copy = (from: string, to: string) => {
  const result = copyStore(from, to);
  assert.equal(result.status, 0, result.stderr);
  return JSON.parse(result.stdout).copied as Record<string, number>;
};

/** Every row of every collection of a store, by collection, as the store hands them out. */
async function rowsOf(where: { dataDir?: string; databaseUrl?: string }) {
  const store = await openStore(where);
  try {
    const all: Record<string, unknown[]> = {};
    for (const name of COLLECTIONS) all[name] = await store.collection(name).all();
    return all;
  } finally {
    await store.close();
  }
}

describe('copy-store: an embedded data folder into PostgreSQL and back', onPostgres, () => {
  test('a round trip keeps every row of every collection, with its list order', async () => {
    const dir = tempDataDir();
    const svc = await startTestService({ dataDir: dir });
    const token = svc.credentials.accessToken;
    const contacts = [];
    try {
      // Messaging: contacts, a group conversation, messages, a deleted contact and a replaced conversation.
      for (let i = 0; i < 5; i++) contacts.push((await svc.api('POST', '/v1/contacts', { token, json: { username: `u${i}`, phone_number: '+441234567' } })).body);
      await svc.api('PUT', `/v1/contacts/${contacts[1].id}`, { token, json: { display_name: 'Ada' } });
      const group = (await svc.api('POST', '/v1/conversations', { token, json: { group_id: 'grp_1' } })).body;
      for (let i = 0; i < 3; i++) await svc.api('POST', `/v1/conversations/${group.id}/messages`, { token, json: { text: `m${i}` } });
      await svc.api('POST', `/v1/conversations/${contacts[2].conversation_id}/messages`, { token, json: { text: 'hi' } });
      await svc.api('PUT', `/v1/conversations/${group.id}`, { token, json: { archived: true, is_pinned: true } });
      await svc.api('DELETE', `/v1/contacts/${contacts[3].id}`, { token });
      await svc.api('DELETE', `/v1/conversations/${contacts[4].conversation_id}`, { token });
      await svc.api('POST', '/v1/conversations', { token, json: { contact_id: contacts[4].id } });
      // Payments: a challenge, a decline, a server-made token unused, idempotency records, a vaulted card.
      const challenged = await createIntent(svc, { account_id: 'acct_1' });
      const challengeToken = await tokenOf(svc, challenged, CARDS.challenge);
      await svc.api('POST', '/v1/payment_intents/attach', { token: svc.credentials.licenceKey, json: { payment_intent_id: challenged.paymentIntentId, token: challengeToken, storeCard: true } });
      const confirm = await svc.api('POST', '/v1/payment_intents/confirm', { token: svc.credentials.licenceKey, json: { payment_intent_id: challenged.paymentIntentId } });
      await answerChallenge(svc, confirm.body.challenge.url, 'complete');
      await svc.api('POST', '/v1/payment_intents/authorise', { token: svc.credentials.licenceKey, json: { payment_intent_id: challenged.paymentIntentId }, headers: { 'X-Idempotency-Key': 'auth-1' } });
      const declined = await createIntent(svc);
      await svc.api('POST', '/v1/payment_intents/attach', { token: svc.credentials.licenceKey, json: { payment_intent_id: declined.paymentIntentId, token: await tokenOf(svc, declined, CARDS.declined) } });
      await svc.api('POST', '/v1/payment_intents/confirm', { token: svc.credentials.licenceKey, json: { payment_intent_id: declined.paymentIntentId } });
      await svc.api('POST', '/v1/payment_intents/authorise', { token: svc.credentials.licenceKey, json: { payment_intent_id: declined.paymentIntentId } });
      await svc.api('POST', '/v1/tokens', { token: svc.credentials.licenceKey, json: { card: { number: '4242424242424242', exp_month: '12', exp_year: '2040', cvc: '123' } } });
      // A refund with metadata, and the intent's own metadata and description.
      await svc.api('POST', '/v1/refunds', { token: svc.credentials.licenceKey, json: { payment_intent: challenged.paymentIntentId, amount: 234, metadata: { ticket: 'T-1' } } });
      await svc.api('POST', `/v1/payment_intents/${declined.paymentIntentId}`, { token: svc.credentials.licenceKey, json: { metadata: { order: 'o-1' }, description: 'Declined' } });
    } finally {
      await svc.close();
    }

    const original = await readDataFolder(dir);
    const databaseUrl = await freshTestDatabase();
    const there = copy(dir, databaseUrl);
    for (const name of COLLECTIONS) assert.equal(there[name], Object.keys(original.collections[name] ?? {}).length, `${name} rows copied`);
    assert.ok(there.refunds === 1 && there.payment_intents >= 2 && there.three_ds_challenges === 1 && there.stored_cards === 1 && there.messages === 4 && there.idempotency_keys >= 1);

    // PostgreSQL hands out the very rows the folder holds.
    const inPostgres = await rowsOf({ databaseUrl });
    const inFolder = await rowsOf({ dataDir: dir });
    assert.deepEqual(inPostgres, inFolder);

    // And back, into a new folder: the same rows, sequence numbers included.
    const back = tempDataDir();
    copy(databaseUrl, back);
    const returned = await readDataFolder(back);
    for (const name of new Set([...COLLECTIONS, ...Object.keys(original.collections), ...Object.keys(returned.collections)]))
      assert.deepEqual(returned.collections[name] ?? {}, original.collections[name] ?? {}, `${name}: every row the same`);

    // The copy serves: a list pages in the same order on PostgreSQL.
    const onPg = await startTestService({ databaseUrl, dataDir: dir });
    try {
      const list = await onPg.api('GET', '/v1/contacts?limit=10', { token });
      assert.deepEqual(list.body.data.map((c: { id: string }) => c.id), [contacts[4], contacts[2], contacts[1], contacts[0]].map((c) => c.id));
    } finally {
      await onPg.close();
    }
    // Into a target that is not empty: refused.
    const again = copyStore(dir, databaseUrl);
    assert.equal(again.status, 1);
    assert.match(again.stderr, /already holds/);
  });
});
