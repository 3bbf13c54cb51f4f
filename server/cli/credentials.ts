import { configFromEnv } from '../config.ts';
import { ensureSeeded, readCredentials } from '../seed.ts';
import { run, runningService, withService } from './service-link.ts';

/**
 * `npm run -s credentials`: the seeded test merchant and demo messaging user, as one JSON object.
 * A running service has seeded its folder already; otherwise this seeds it.
 */
await run(async () => {
  const config = configFromEnv();
  // Report the URL the running service really has, whatever this shell's PORT says.
  config.publicUrl = runningService(config)?.publicUrl ?? config.publicUrl;
  const found = readCredentials(config) ?? (await withService({ viaService: async () => undefined, direct: ensureSeeded }));
  if (!found) throw new Error('The running service has no credentials file: restart it with an empty CPE_DATA_DIR.');
  const { serviceUrl, merchantId, licenceKey, publicKey, accessToken } = found;
  return { serviceUrl, merchantId, licenceKey, publicKey, accessToken };
});
