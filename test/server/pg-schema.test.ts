import assert from 'node:assert/strict';
import { after, test } from 'node:test';
import pg from 'pg';
import { MIGRATIONS, TABLES } from '../../server/store/pg-schema.ts';
import { migrate } from '../../server/store/pg-migrate.ts';
import { freshTestDatabase } from '../../testkit/postgres.ts';
import { testEngine } from '../helpers/service.ts';

/**
 * The PostgreSQL engine's column map (TABLES, typed against each stored row's one declaration, such
 * as server/payments/intent-rows.ts) is what the migrations make: every field has its column, of
 * its type, and nothing the service writes is dropped. Migrations run in version order, once each.
 */
const onPostgres = { skip: testEngine() !== 'postgres' ? 'PostgreSQL leg only (CPE_TEST_ENGINE=postgres)' : false };
const pools: pg.Pool[] = [];
after(() => Promise.all(pools.map((p) => p.end())));

const TYPES: Record<string, string> = { text: 'text', int: 'integer', bigint: 'bigint', bool: 'boolean', json: 'json', jsonb: 'jsonb', 'text[]': 'ARRAY' };

test('every column of the map is in the migrated tables, with its type', onPostgres, async () => {
  const pool = new pg.Pool({ connectionString: await freshTestDatabase(), max: 1 });
  pools.push(pool);
  assert.deepEqual(await migrate(pool), MIGRATIONS.map((m) => m.version).sort((a, b) => a - b));
  assert.deepEqual(await migrate(pool), [], 'each migration runs once');
  for (const def of Object.values(TABLES)) {
    const { rows } = await pool.query<{ column_name: string; data_type: string }>('SELECT column_name, data_type FROM information_schema.columns WHERE table_name = $1', [def.table]);
    const columns = new Map(rows.map((r) => [r.column_name, r.data_type]));
    for (const [name, column] of Object.entries(def.columns)) assert.equal(columns.get(name), TYPES[column.type], `${def.table}.${name}`);
    for (const column of Object.values(def.indexes)) assert.ok(columns.has(column), `${def.table}: the index column ${column}`);
  }
});

test('migration versions are unique; the migrator applies them in version order whatever the list order', () => {
  const versions = MIGRATIONS.map((m) => m.version);
  assert.equal(new Set(versions).size, versions.length);
});
