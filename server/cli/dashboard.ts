import { parseArgs } from 'node:util';
import { dashboardLink } from '../admin/admin-routes.ts';
import { configFromEnv } from '../config.ts';
import { ensureSeeded, readCredentials } from '../seed.ts';
import { run, withService } from './service-link.ts';

/**
 * `npm run -s dashboard [-- --merchant <id>]`: a one-time sign-in link to the dashboard (valid once,
 * for an hour), for the seeded test merchant unless another is named. Printed bare, so that
 * `open "$(npm run -s dashboard)"` works.
 */
await run(async () => {
  const { values } = parseArgs({ options: { merchant: { type: 'string' } } });
  const named = values.merchant === undefined ? undefined : Number(values.merchant);
  if (named !== undefined && !(Number.isInteger(named) && named > 0)) throw new Error('Usage: npm run -s dashboard [-- --merchant <merchant id>]');
  const link = await withService({
    viaService: (call) => {
      const merchantId = named ?? readCredentials(configFromEnv())?.merchantId;
      if (merchantId === undefined) throw new Error('The running service has no seeded merchant\'s credentials.json: name one with -- --merchant <merchant id>.');
      return call('createDashboardLink', { merchantId });
    },
    direct: async (services) => dashboardLink(services, named ?? (await ensureSeeded(services)).merchantId),
  });
  return link.url;
});
