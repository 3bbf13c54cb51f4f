import { configFromEnv } from '../config.ts';
import { readCredentials, type Credentials } from '../seed.ts';
import { runningService } from './service-link.ts';

export interface ApiLink {
  url: string;
  credentials: Credentials;
  /** A request to the running service's API with the seeded merchant's licence key (or `token`); its JSON, or an Error with the service's message. */
  call(method: string, path: string, body?: unknown, token?: string): Promise<any>;
}

/**
 * The running service's public API, as the seeded merchant (credentials.json of CPE_DATA_DIR): for
 * the commands that act as a merchant's backend would (listen, trigger).
 */
export function apiLink(): ApiLink {
  const config = configFromEnv();
  const credentials = readCredentials(config);
  if (!credentials) throw new Error(`No credentials in ${config.dataDir}: start the service once (npm start), or set CPE_DATA_DIR to its data folder.`);
  const url = runningService(config)?.url ?? config.publicUrl;
  return {
    url,
    credentials,
    async call(method, path, body, token = credentials.licenceKey) {
      let response: Response;
      try {
        response = await fetch(url + path, {
          method,
          headers: { authorization: `Bearer ${token}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
          body: body === undefined ? undefined : JSON.stringify(body),
        });
      } catch {
        throw new Error(`The service at ${url} does not answer: start it (npm start), or set PORT or CPE_PUBLIC_URL to where it runs.`);
      }
      const answer = (await response.json()) as { error?: { message?: string } };
      if (!response.ok) throw new Error(`${method} ${path}: ${response.status} ${answer.error?.message ?? ''}`);
      return answer;
    },
  };
}
