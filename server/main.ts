import { startDemo } from '../demo/server.ts';
import { configFromEnv } from './config.ts';
import { startService } from './start.ts';

/** `npm start`: the service and the demo merchant, on two origins. */
const config = configFromEnv();
const service = await startService(config);
const demo = await startDemo({ port: config.demoPort, credentials: service.credentials });

const { merchantId, licenceKey, publicKey, accessToken } = service.credentials;
process.stdout.write(`
CPE service        ${service.url}
Demo merchant      ${demo.url}
API description    ${service.url}/v1/openapi.json
Data               ${config.dataDir}

Test credentials (also: npm run -s credentials)
  merchantId       ${merchantId}
  publicKey        ${publicKey}
  licenceKey       ${licenceKey}   (server side only)
  accessToken      ${accessToken}   (messaging user "demo")

Try: curl -H "Authorization: Bearer ${accessToken}" ${service.url}/v1/contacts
`);

let stopping = false;
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, async () => {
    if (stopping) return;
    stopping = true;
    demo.server.close();
    await service.close();
    process.exit(0);
  });
}
