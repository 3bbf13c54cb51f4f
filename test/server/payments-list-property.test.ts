import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import fc from 'fast-check';
import { idPosition } from '../../server/identity/ids.ts';
import type { IntentRow } from '../../server/payments/intent-rows.ts';
import { storedIntent } from '../../testkit/intent-rows.ts';
import { scaled } from '../../testkit/time.ts';
import { startTestService, type TestService } from '../helpers/service.ts';

/**
 * Property: GET /v1/payment_intents answers, for any filter (one or several statuses, metadata pairs,
 * a created range), cursor and limit, exactly the page that a brute-force filter of all the
 * merchant's intents gives (the same ids in the same order, the same has_more), while intents are
 * made and change status and metadata (so the lists an engine keeps for them change), and another
 * merchant's intents with the same metadata are made beside them; on the engine under test.
 *
 * The intents are written straight into the store, as the service writes them (the list reads
 * what is stored; making each through the API would cost a payment per status). FC_SEED, FC_RUNS.
 */
let svc: TestService;
before(async () => (svc = await startTestService()));
after(() => svc.close());

const STATUSES = ['succeeded', 'requires_capture', 'failed', 'cancelled'] as const satisfies readonly IntentRow['status'][];
const KEYS = ['channel', 'customer', 'order'] as const;
const VALUES = ['a', 'b'] as const;

/** Creation times only grow as intents are made, across every run (as the service's clock makes them). */
let clock = 1_800_000_000;

const metadata = fc.dictionary(fc.constantFrom(...KEYS), fc.constantFrom(...VALUES), { maxKeys: 3 });
const status = fc.constantFrom(...STATUSES);

type Op =
  | { op: 'make'; own: boolean; status: IntentRow['status']; metadata: Record<string, string>; after: number }
  | { op: 'change'; i: number; status?: IntentRow['status']; metadata?: Record<string, string> }
  | {
      op: 'list';
      statuses: IntentRow['status'][];
      pairs: Record<string, string>;
      created: { gte?: number; lte?: number };
      cursor?: { kind: 'starting_after' | 'ending_before'; i: number };
      limit: number;
    };

/** Undefined twice as often as a value: a list with every filter and a cursor at once is mostly empty. */
const sometimes = <T>(value: fc.Arbitrary<T>) => fc.oneof({ weight: 2, arbitrary: fc.constant(undefined) }, { weight: 1, arbitrary: value });

const op: fc.Arbitrary<Op> = fc.oneof(
  { weight: 4, arbitrary: fc.record({ op: fc.constant('make' as const), own: fc.boolean(), status, metadata, after: fc.integer({ min: 0, max: 3 }) }) },
  {
    weight: 2,
    arbitrary: fc.record({ op: fc.constant('change' as const), i: fc.nat(), status: fc.option(status, { nil: undefined }), metadata: fc.option(metadata, { nil: undefined }) }),
  },
  {
    weight: 4,
    arbitrary: fc.record({
      op: fc.constant('list' as const),
      statuses: fc.oneof(fc.constant<IntentRow['status'][]>([]), fc.uniqueArray(status, { minLength: 1, maxLength: 3 })),
      pairs: fc.oneof(fc.constant<Record<string, string>>({}), fc.dictionary(fc.constantFrom(...KEYS), fc.constantFrom(...VALUES), { minKeys: 1, maxKeys: 2 })),
      // Offsets back from the newest creation time of the run.
      created: fc.record({ gte: sometimes(fc.nat({ max: 40 })), lte: sometimes(fc.nat({ max: 10 })) }),
      cursor: sometimes(fc.record({ kind: fc.constantFrom('starting_after' as const, 'ending_before' as const), i: fc.nat() })),
      limit: fc.integer({ min: 1, max: 4 }),
    }),
  },
);

test('a filtered page is the brute-force filter of every intent, whatever the filter, cursor and changes', { timeout: scaled(600_000) }, async () => {
  const intents = svc.services.store.collection<IntentRow>('payment_intents');
  let runs = 0;
  let lists = 0;
  let nonEmpty = 0;
  await fc.assert(
    fc.asyncProperty(fc.array(op, { minLength: 10, maxLength: 60, size: 'max' }), async (ops) => {
      runs++;
      const own = await svc.services.merchants.create({ origins: ['https://list.example'] });
      const other = await svc.services.merchants.create({ origins: ['https://list.example'] });
      /** The model: the merchant's intents as they are now, oldest first. */
      const rows: IntentRow[] = [];
      const started = clock;
      for (const step of ops) {
        if (step.op === 'make') {
          clock += step.after;
          const row = storedIntent({ merchant_id: step.own ? own.merchantId : other.merchantId, status: step.status, metadata: step.metadata, created_at: clock });
          await svc.services.store.transaction(() => intents.insert(row));
          if (step.own) rows.push(row);
        } else if (step.op === 'change') {
          if (rows.length === 0) continue;
          const at = step.i % rows.length;
          const patch: Partial<IntentRow> = {};
          if (step.status) patch.status = step.status;
          if (step.metadata) patch.metadata = step.metadata;
          await svc.services.store.transaction(() => intents.update(rows[at].id, patch));
          rows[at] = { ...rows[at], ...patch };
        } else {
          const query = new URLSearchParams({ limit: String(step.limit) });
          if (step.statuses.length) query.set('status', step.statuses.join(','));
          for (const [key, value] of Object.entries(step.pairs)) query.set(`metadata[${key}]`, value);
          const gte = step.created.gte === undefined ? undefined : clock - step.created.gte;
          const lte = step.created.lte === undefined ? undefined : clock - step.created.lte;
          if (gte !== undefined) query.set('created[gte]', String(gte));
          if (lte !== undefined) query.set('created[lte]', String(lte));
          const cursor = step.cursor && rows.length ? rows[step.cursor.i % rows.length].id : undefined;
          if (cursor) query.set(step.cursor!.kind, cursor);

          const matches = (row: IntentRow) =>
            (step.statuses.length === 0 || step.statuses.includes(row.status)) &&
            Object.entries(step.pairs).every(([key, value]) => row.metadata?.[key] === value) &&
            (gte === undefined || row.created_at >= gte) &&
            (lte === undefined || row.created_at <= lte);
          const newestFirst = [...rows].reverse().filter(matches);
          const place = cursor === undefined ? undefined : idPosition(cursor)!;
          let expected: { ids: string[]; has_more: boolean };
          if (place === undefined || step.cursor!.kind === 'starting_after') {
            const older = place === undefined ? newestFirst : newestFirst.filter((row) => idPosition(row.id)! < place);
            expected = { ids: older.slice(0, step.limit).map((row) => row.id), has_more: older.length > step.limit };
          } else {
            const newer = newestFirst.filter((row) => idPosition(row.id)! > place);
            expected = { ids: newer.slice(-step.limit).map((row) => row.id), has_more: newer.length > step.limit };
          }

          const answer = await svc.api('GET', `/v1/payment_intents?${query}`, { token: own.licenceKey });
          assert.equal(answer.status, 200, JSON.stringify(answer.body));
          assert.deepEqual(
            { ids: answer.body.data.map((intent: { id: string }) => intent.id), has_more: answer.body.has_more },
            expected,
            `GET /v1/payment_intents?${decodeURIComponent(query.toString())} (creation times ${started}…${clock})`,
          );
          lists++;
          if (expected.ids.length) nonEmpty++;
        }
      }
    }),
    { numRuns: Number(process.env.FC_RUNS ?? 60), ...(process.env.FC_SEED ? { seed: Number(process.env.FC_SEED) } : {}) },
  );
  // The property says something only if pages were found (not every filter an empty list).
  assert.ok(nonEmpty > lists / 5, `${nonEmpty} of ${lists} pages in ${runs} runs hold an intent`);
});
