import pg from 'pg';
import { configFromEnv } from '../config.ts';
import { BUILD_SCHEMA_VERSION, migrate } from '../store/pg-migrate.ts';
import { run } from './service-link.ts';

/**
 * `npm run -s migrate`: brings the PostgreSQL database of CPE_DATABASE_URL up to the newest schema
 * (the service does the same at start; this is for deploying the schema first). Safe while services
 * run and when several run it at once: migrations take an advisory lock and each applies once.
 */
await run(async () => {
  const { databaseUrl } = configFromEnv();
  if (!databaseUrl) throw new Error('Set CPE_DATABASE_URL=postgres://… : the embedded store has no schema to migrate.');
  const pool = new pg.Pool({ connectionString: databaseUrl, max: 1 });
  try {
    const applied = await migrate(pool);
    return { applied, version: BUILD_SCHEMA_VERSION };
  } finally {
    await pool.end();
  }
});
