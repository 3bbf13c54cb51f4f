/**
 * `node --import tsx bench/scale/drivers.ts`: the two well-kept PostgreSQL drivers, `postgres`
 * (postgres.js) and `pg` (node-postgres), on what CPE asks of a driver: point reads by key, and short
 * read-modify-write transactions, 32 in flight over a pool of 10, against a throwaway server.
 */
import pgModule from 'pg';
import postgres from 'postgres';
import { startPostgres } from '../../testkit/postgres.ts';

const server = await startPostgres({ durable: true });
const ROWS = 10_000;
const IN_FLIGHT = 32;
const POOL = 10;

async function timed(label: string, count: number, one: (i: number) => Promise<unknown>): Promise<number> {
  let next = 0;
  const started = performance.now();
  await Promise.all(Array.from({ length: IN_FLIGHT }, async () => {
    while (next < count) await one(next++);
  }));
  const perSecond = count / ((performance.now() - started) / 1000);
  console.log(`${label.padEnd(44)} ${Math.round(perSecond).toLocaleString('en')}/s`);
  return perSecond;
}

try {
  const setup = postgres(server.url, { max: 1, onnotice: () => {} });
  await setup`CREATE TABLE t (id text PRIMARY KEY, n int NOT NULL, body jsonb NOT NULL)`;
  await setup`INSERT INTO t SELECT 'k' || i, 0, jsonb_build_object('i', i, 'name', 'row ' || i) FROM generate_series(0, ${ROWS - 1}) i`;
  await setup.end();
  const results: Record<string, number[]> = { postgres: [], pg: [] };
  for (let round = 0; round < 2; round++) {
    const sql = postgres(server.url, { max: POOL, onnotice: () => {} });
    results.postgres.push(await timed('postgres: point read', 20_000, (i) => sql`SELECT id, n, body FROM t WHERE id = ${'k' + (i % ROWS)}`));
    results.postgres.push(await timed('postgres: transaction (lock, update)', 5_000, (i) =>
      sql.begin(async (tx) => {
        const [row] = await tx`SELECT n FROM t WHERE id = ${'k' + (i % ROWS)} FOR UPDATE`;
        await tx`UPDATE t SET n = ${row.n + 1} WHERE id = ${'k' + (i % ROWS)}`;
      })));
    await sql.end();

    const pool = new pgModule.Pool({ connectionString: server.url, max: POOL });
    results.pg.push(await timed('pg: point read', 20_000, (i) => pool.query({ name: 'read', text: 'SELECT id, n, body FROM t WHERE id = $1', values: ['k' + (i % ROWS)] })));
    results.pg.push(await timed('pg: transaction (lock, update)', 5_000, async (i) => {
      const client = await pool.connect();
      try {
        await client.query('BEGIN');
        const { rows } = await client.query({ name: 'lock', text: 'SELECT n FROM t WHERE id = $1 FOR UPDATE', values: ['k' + (i % ROWS)] });
        await client.query({ name: 'update', text: 'UPDATE t SET n = $1 WHERE id = $2', values: [rows[0].n + 1, 'k' + (i % ROWS)] });
        await client.query('COMMIT');
      } finally {
        client.release();
      }
    }));
    await pool.end();
  }
  const best = (xs: number[], at: number) => Math.max(xs[at], xs[at + 2]);
  console.log(`postgres/pg: point reads ${(best(results.postgres, 0) / best(results.pg, 0)).toFixed(2)}×, transactions ${(best(results.postgres, 1) / best(results.pg, 1)).toFixed(2)}×`);
} finally {
  server.stop();
}
