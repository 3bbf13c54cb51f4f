import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { IntentRow } from '../../server/payments/intent-rows.ts';
import type { PgStore } from '../../server/store/pg-store.ts';
import { storedIntent } from '../../testkit/intent-rows.ts';
import { scaled } from '../../testkit/time.ts';
import { startTestService, testEngine, type TestService } from '../helpers/service.ts';

/**
 * PostgreSQL's plan of a page of GET /v1/payment_intents with filters combined (one or several
 * statuses, a created range, metadata pairs common and rare, a cursor), at 12,000 intents of one
 * merchant beside 6,000 of another holding the same metadata: the page the service asks for is
 * run again under EXPLAIN ANALYZE, and its scans of payment_intents must be index scans that read
 * a few hundred rows at most, not the merchant's list (a plan that walks the status list and
 * filters out a rare pair, or gathers a third of the table through the metadata index and sorts
 * it, fails). The embedded engine's walk is the property test's (payments-list-property.test.ts)
 * and the list bench's.
 */
const DAY = 86_400;
const OWN = 12_000;
const OTHER = 6_000;
/** Rows a page of 10 may read from payment_intents (scanned, whether kept or filtered out). */
const MAX_ROWS_READ = 300;

const STATUSES: IntentRow['status'][] = ['succeeded', 'succeeded', 'succeeded', 'requires_payment_method', 'failed', 'cancelled', 'succeeded', 'succeeded', 'succeeded', 'succeeded'];
/** 5 % of intents await capture (one in 20), as few as in a shop. */
const statusOf = (n: number): IntentRow['status'] => (n % 20 === 7 ? 'requires_capture' : STATUSES[n % 10]!);

interface PlanNode {
  'Node Type': string;
  'Relation Name'?: string;
  'Index Name'?: string;
  'Actual Rows': number;
  'Actual Loops': number;
  'Rows Removed by Filter'?: number;
  'Rows Removed by Index Recheck'?: number;
  Plans?: PlanNode[];
}

const nodes = (node: PlanNode): PlanNode[] => [node, ...(node.Plans ?? []).flatMap(nodes)];
const shown = (node: PlanNode, depth = 0): string =>
  [
    `${'  '.repeat(depth)}${node['Node Type']}${node['Index Name'] ? ` using ${node['Index Name']}` : ''}${node['Relation Name'] ? ` on ${node['Relation Name']}` : ''} rows=${node['Actual Rows']}×${node['Actual Loops']} removed=${(node['Rows Removed by Filter'] ?? 0) + (node['Rows Removed by Index Recheck'] ?? 0)}`,
    ...(node.Plans ?? []).map((child) => shown(child, depth + 1)),
  ].join('\n');

const intentScans = (plan: PlanNode) => nodes(plan).filter((node) => node['Relation Name'] === 'payment_intents');
/** Rows of payment_intents the plan read: kept or filtered out, in every loop. */
const rowsRead = (plan: PlanNode) =>
  intentScans(plan).reduce((sum, node) => sum + (node['Actual Rows'] + (node['Rows Removed by Filter'] ?? 0) + (node['Rows Removed by Index Recheck'] ?? 0)) * node['Actual Loops'], 0);

describe('the intent list on PostgreSQL: combined filters read through indexes', { skip: testEngine() === 'postgres' ? false : 'PostgreSQL only (CPE_TEST_ENGINE=postgres)' }, () => {
  let svc: TestService;
  let store: PgStore;
  let licenceKey: string;
  let start: number;
  /** The statements the store ran, as the service sent them (text and values). */
  const statements: { text: string; values: unknown[] }[] = [];

  before(async () => {
    svc = await startTestService();
    store = svc.services.store as PgStore;
    const own = await svc.services.merchants.create({ origins: ['https://plan.example'] });
    const other = await svc.services.merchants.create({ origins: ['https://plan.example'] });
    licenceKey = own.licenceKey;
    start = Math.floor(Date.now() / 1000) - 31 * DAY;
    const intents = store.collection<IntentRow>('payment_intents');
    // Both merchants' intents interleaved in time, as two shops' would be.
    const total = OWN + OTHER;
    for (let from = 0; from < total; from += 1_000) {
      await store.transaction(async () => {
        for (let n = from; n < Math.min(total, from + 1_000); n++) {
          const mine = n % 3 !== 2;
          await intents.insert(
            storedIntent({
              merchant_id: mine ? own.merchantId : other.merchantId,
              status: statusOf(n),
              metadata: { order_id: `ord-${n}`, channel: ['web', 'phone', 'shop'][Math.floor(n / 3) % 3]!, customer: `cus-${n % 5_000}` },
              created_at: start + Math.floor((n / total) * 30 * DAY),
            }),
          );
        }
      });
    }
    await store.query('ANALYZE payment_intents');
    // The test's own store object records what it is asked to run (the service's statements are private to the store).
    const query = store.query.bind(store);
    store.query = (async (text: string, values?: unknown[], options?: { planEach?: boolean }) => {
      statements.push({ text, values: values ?? [] });
      return query(text, values, options);
    }) as PgStore['query'];
  });
  after(() => svc?.close());

  /** The page's own statement (the last SELECT … ORDER BY of payment_intents) under EXPLAIN ANALYZE. */
  async function planOf(query: string): Promise<{ plan: PlanNode; ids: string[] }> {
    statements.length = 0;
    const answer = await svc.api('GET', `/v1/payment_intents?${query}`, { token: licenceKey });
    assert.equal(answer.status, 200, JSON.stringify(answer.body));
    const page = statements.filter((s) => /FROM payment_intents/.test(s.text) && /ORDER BY t\.seq/.test(s.text)).at(-1);
    assert.ok(page, `the page's statement among ${statements.length}`);
    const { rows } = await store.query(`EXPLAIN (ANALYZE, FORMAT JSON) ${page.text}`, page.values, { planEach: true });
    return { plan: rows[0]['QUERY PLAN'][0].Plan, ids: answer.body.data.map((intent: { id: string }) => intent.id) };
  }

  const mid = () => start + 15 * DAY;
  const cases: [string, () => string, boolean][] = [
    ['status + a day of created + a common pair', () => `limit=10&status=succeeded&created[gte]=${mid()}&created[lte]=${mid() + DAY}&metadata[channel]=phone`, true],
    ['a rare status + created[gte] + a common pair', () => `limit=10&status=requires_capture&created[gte]=${mid()}&metadata[channel]=web`, true],
    ['a rare status + a rare pair (4 intents) + created[lte]', () => `limit=10&status=requires_capture&metadata[customer]=cus-7&created[lte]=${start + 29 * DAY}`, true],
    ['two statuses + the oldest tenth + a common pair', () => `limit=10&status=failed,cancelled&created[lte]=${start + 3 * DAY}&metadata[channel]=web`, true],
    ['status + one order id + a created range', () => `limit=10&status=succeeded&metadata[order_id]=ord-9000&created[gte]=${start}&created[lte]=${start + 30 * DAY}`, true],
    ['two statuses + a rare pair + created[gte]', () => `limit=10&status=requires_capture,failed&metadata[customer]=cus-7&created[gte]=${start}`, true],
    ['status + two pairs + created[gte]', () => `limit=10&status=succeeded&metadata[channel]=shop&metadata[customer]=cus-4000&created[gte]=${start + DAY}`, false],
  ];

  test('two statuses + created + a common pair, the second page (starting_after)', { timeout: scaled(120_000) }, async () => {
    const filters = `limit=10&status=succeeded,requires_capture&created[gte]=${start + DAY}&metadata[channel]=web`;
    const first = await planOf(filters);
    const second = await planOf(`${filters}&starting_after=${first.ids.at(-1)}`);
    assert.equal(second.ids.length, 10);
    assert.ok(rowsRead(second.plan) <= MAX_ROWS_READ, `read ${rowsRead(second.plan)} rows\n${shown(second.plan)}`);
  });

  for (const [name, query, nonEmpty] of cases) {
    test(name, { timeout: scaled(120_000) }, async () => {
      const { plan, ids } = await planOf(query());
      if (nonEmpty) assert.ok(ids.length > 0, 'the page finds intents (the filter is not vacuous)');
      const scans = intentScans(plan);
      const read = rowsRead(plan);
      const why = `${query()}\n${shown(plan)}`;
      assert.ok(scans.length > 0, why);
      assert.deepEqual(scans.filter((node) => node['Node Type'] === 'Seq Scan'), [], `no sequential scan of payment_intents\n${why}`);
      assert.ok(read <= MAX_ROWS_READ, `read ${read} rows of payment_intents for a page of ${ids.length} (at most ${MAX_ROWS_READ})\n${why}`);
    });
  }
});
