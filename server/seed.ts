import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Services } from './services.ts';
import type { Config } from './config.ts';

/** What `npm run -s credentials` prints. */
export interface Credentials {
  serviceUrl: string;
  merchantId: number;
  licenceKey: string;
  publicKey: string;
  accessToken: string;
}

export const DEMO_USERNAME = 'demo';

const fileOf = (dataDir: string) => join(dataDir, 'credentials.json');

/** The credentials written at seeding, if this data folder was seeded. */
export function readCredentials(config: Config): Credentials | undefined {
  if (!config.dataDir || !existsSync(fileOf(config.dataDir))) return undefined;
  return { ...(JSON.parse(readFileSync(fileOf(config.dataDir), 'utf8')) as Credentials), serviceUrl: config.publicUrl };
}

/**
 * On first start with an empty data folder, creates the test merchant (allowed on the demo
 * merchant's origin) and the demo messaging user. The database keeps only hashes of their keys, so
 * the plain values are written once to `credentials.json` beside it (mode 0600, like a .env file),
 * for the developer and `npm run -s credentials`.
 */
export async function ensureSeeded(services: Services): Promise<Credentials> {
  const { config } = services;
  const dataDir = config.dataDir;
  const existing = readCredentials(config);
  if (existing) return existing;
  const merchant = services.merchants.create({
    name: 'CPE demo shop',
    origins: [`http://localhost:${config.demoPort}`, `http://127.0.0.1:${config.demoPort}`],
  });
  const { accessToken } = services.users.issueToken(DEMO_USERNAME);
  await services.store.commit();
  const credentials: Credentials = { serviceUrl: config.publicUrl, ...merchant, accessToken };
  if (dataDir) writeFileSync(fileOf(dataDir), `${JSON.stringify(credentials, null, 2)}\n`, { mode: 0o600 });
  return credentials;
}
