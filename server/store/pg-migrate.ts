import type pg from 'pg';
import { MIGRATIONS } from './pg-schema.ts';

/** The advisory lock migrations (and only they) take: however many processes start at once, one migrates. */
const MIGRATION_LOCK = 0x637065; // 'cpe'

/** The newest schema this build knows. */
export const BUILD_SCHEMA_VERSION = Math.max(...MIGRATIONS.map((m) => m.version));

/**
 * A database migrated by a newer build (a version this one does not have) is refused rather than
 * used: this build would read and write tables whose shape it does not know. The message names both
 * versions.
 */
function refuseUnknownVersions(applied: ReadonlySet<number>): void {
  const known = new Set(MIGRATIONS.map((m) => m.version));
  const unknown = [...applied].filter((version) => !known.has(version)).sort((a, b) => a - b);
  if (!unknown.length) return;
  const newest = Math.max(...applied);
  throw new Error(
    (newest > BUILD_SCHEMA_VERSION
      ? `The database's schema is at version ${newest}, newer than this build of CPE knows (schema version ${BUILD_SCHEMA_VERSION}).`
      : `The database has schema version${unknown.length > 1 ? 's' : ''} ${unknown.join(', ')}, which this build of CPE (schema version ${BUILD_SCHEMA_VERSION}) does not have.`) +
      ' A newer CPE migrated it: run that version (or a newer one), or set CPE_DATABASE_URL to another database.',
  );
}

/**
 * Brings the schema up to date: each migration of pg-schema.ts not yet in schema_migrations runs in a
 * transaction of its own, in version order (gaps allowed: a version is applied once, whenever it
 * arrives), under an advisory lock; a schema newer than this build is refused. Returns the versions
 * applied.
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
      refuseUnknownVersions(done);
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
