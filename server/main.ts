import { startDemo } from '../demo/server.ts';
import { configFromEnv } from './config.ts';
import { readSdkRelease, sdkScriptTag } from './http/sdk-release.ts';
import { startService } from './start.ts';

/** `npm start`: the service and the demo merchant, on two origins. */
const config = configFromEnv();

/** A taken port is the newcomer's most likely failure: say what to do instead of a stack trace. */
async function orExplain<T>(what: string, variable: string, port: number, start: () => Promise<T>): Promise<T> {
  try {
    return await start();
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EADDRINUSE') throw error;
    process.stderr.write(`Port ${port} (${what}) is already in use: is CPE already running? Stop it, or choose another port with ${variable}=<port>.\n`);
    process.exit(1);
  }
}

const service = await orExplain('the service', 'PORT', config.port, () => startService(config));
const demo = await orExplain('the demo merchant', 'DEMO_PORT', config.demoPort, () =>
  startDemo({ port: config.demoPort, credentials: service.credentials }),
);

const { merchantId, licenceKey, publicKey, accessToken } = service.credentials;
const release = readSdkRelease();
process.stdout.write(`
CPE service        ${service.url}
Demo merchant      ${demo.url}
API description    ${service.url}/v1/openapi.json
Data               ${config.dataDir}

The SDK, pinned to this build with Subresource Integrity (also: ${service.url}/sdk/integrity.json)
  ${release ? sdkScriptTag(service.url, release) : 'not built yet: npm run build'}

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
