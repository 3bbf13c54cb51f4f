import type pg from 'pg';
import { MIGRATIONS } from './pg-schema.ts';

/** The advisory lock migrations (and only they) take: however many processes start at once, one migrates. */
const MIGRATION_LOCK = 0x637065; // 'cpe'

/**
 * Brings the schema up to date: each migration of pg-schema.ts not yet in schema_migrations runs in a
 * transaction of its own, in version order (gaps allowed: a version is applied once, whenever it
 * arrives), under an advisory lock. Returns the versions applied.
 */
export async function migrate(pool: pg.Pool): Promise<number[]> {
  const client = await pool.connect();
  const applied: number[] = [];
  try {
    await client.query('SELECT pg_advisory_lock($1)', [MIGRATION_LOCK]);
    try {
      await client.query('CREATE TABLE IF NOT EXISTS schema_migrations (version integer PRIMARY KEY, name text NOT NULL, applied_at timestamptz NOT NULL DEFAULT now())');
      const { rows } = await client.query<{ version: number }>('SELECT version FROM schema_migrations');
      const done = new Set(rows.map((r) => Number(r.version)));
      // Ascending, whatever order merges left the list in; numbers may have gaps (each issue has its own).
      for (const migration of [...MIGRATIONS].sort((a, b) => a.version - b.version)) {
        if (done.has(migration.version)) continue;
        await client.query('BEGIN');
        try {
          await client.query(migration.sql);
          await client.query('INSERT INTO schema_migrations (version, name) VALUES ($1, $2)', [migration.version, migration.name]);
          await client.query('COMMIT');
        } catch (error) {
          await client.query('ROLLBACK');
          throw new Error(`Migration ${migration.version} (${migration.name}) failed: ${(error as Error).message}`);
        }
        applied.push(migration.version);
      }
    } finally {
      await client.query('SELECT pg_advisory_unlock($1)', [MIGRATION_LOCK]);
    }
  } finally {
    client.release();
  }
  return applied;
}
