import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
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

/** The merchant this data folder was seeded with (its credentials.json), if any. */
export const seededMerchantId = (config: Config): number | undefined => readCredentials(config)?.merchantId;

/**
 * After a Roll key of the seeded merchant, its credentials.json holds the new licence key, so
 * `npm run -s credentials` and the demo shop (which watches the file) go on working. True when written.
 */
export function rewriteSeededLicenceKey(config: Config, merchantId: number, licenceKey: string): boolean {
  const seeded = readCredentials(config);
  if (!seeded || seeded.merchantId !== merchantId || !config.dataDir) return false;
  const stored = JSON.parse(readFileSync(fileOf(config.dataDir), 'utf8')) as Credentials;
  writeCredentials(config.dataDir, { ...stored, licenceKey });
  return true;
}

/** Written whole to a temporary file and renamed over, so a reader never sees half of it. */
function writeCredentials(dataDir: string, credentials: Credentials): void {
  const temporary = `${fileOf(dataDir)}.${process.pid}.tmp`;
  writeFileSync(temporary, `${JSON.stringify(credentials, null, 2)}\n`, { mode: 0o600 });
  renameSync(temporary, fileOf(dataDir));
}

/**
 * On first start with an empty data folder, creates the test merchant (allowed on the demo
 * merchant's origin) and the demo messaging user. The database keeps only hashes of their keys, so
 * the plain values are written once to `credentials.json` beside it (mode 0600, like a .env file),
 * for the developer and `npm run -s credentials`.
 */
export async function ensureSeeded(services: Services): Promise<Credentials> {
  const { config, store } = services;
  const dataDir = config.dataDir;
  const existing = readCredentials(config);
  if (existing) {
    // Keys seeded before the dashboard: it may now show the public key and the licence key's last four.
    await services.merchants.learn([
      { key: existing.licenceKey, kind: 'licence' },
      { key: existing.publicKey, kind: 'public' },
    ]);
    return existing;
  }
  // However many processes start at once on one database, one seeds; the others wait and read its file.
  return store.transaction(async () => {
    await store.lock('seed');
    const seeded = readCredentials(config);
    if (seeded) return seeded;
    const meta = store.collection<{ id: string; value: unknown }>('meta');
    if (store.engine === 'postgres' && (await meta.get('seeded')))
      throw new Error(
        `This database was seeded by a service with another data folder: copy that folder's credentials.json into ${dataDir ?? 'CPE_DATA_DIR'} ` +
          '(every process of one database uses the same CPE_DATA_DIR), or make a merchant and a token with npm run -s merchant / token.',
      );
    const merchant = await services.merchants.create({
      name: 'CPE demo shop',
      origins: [`http://localhost:${config.demoPort}`, `http://127.0.0.1:${config.demoPort}`],
    });
    const { accessToken } = await services.users.issueToken(DEMO_USERNAME);
    await meta.insertOrGet({ id: 'seeded', value: { merchantId: merchant.merchantId, at: services.clock.now() } });
    const credentials: Credentials = { serviceUrl: config.publicUrl, ...merchant, accessToken };
    // Written before the transaction ends, so a process waiting on the lock finds it.
    if (dataDir) mkdirSync(dataDir, { recursive: true, mode: 0o700 });
    if (dataDir) writeCredentials(dataDir, credentials);
    return credentials;
  });
}
