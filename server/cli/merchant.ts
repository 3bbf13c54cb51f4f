import { parseArgs } from 'node:util';
import { configFromEnv } from '../config.ts';
import { run, runningService, withService } from './service-link.ts';

/**
 * `npm run -s merchant -- --origin <origin> [--origin …] [--name <name>]`: a new test merchant whose
 * pages on those origins may embed the components.
 */
await run(async () => {
  const { values } = parseArgs({ options: { origin: { type: 'string', multiple: true }, name: { type: 'string' } } });
  const origins = values.origin ?? [];
  if (!origins.length) throw new Error('Usage: npm run -s merchant -- --origin <origin> [--origin <origin>…]');
  const input = { origins, ...(values.name ? { name: values.name } : {}) };
  const created = await withService({
    viaService: (call) => call('createMerchant', input),
    direct: ({ merchants }) => merchants.create(input),
  });
  const config = configFromEnv();
  return { serviceUrl: runningService(config)?.publicUrl ?? config.publicUrl, ...created };
});
