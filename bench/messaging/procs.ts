/** The messaging benchmark's servers (CPE, bare Koa, json-server) as child processes, started and ready. */
import { join } from 'node:path';
import { spawnNode, startServiceChild, type Child } from '../../testkit/processes.ts';

export interface CpeService {
  child: Child;
  url: string;
  token: string;
}

/**
 * The service as a child (startServiceChild) with its own data folder, unthrottled, logging at its
 * default level (info: a JSON line per request) into `<dataDir>.log`: on its stdout the lines would be
 * read by this process, which is also the load generator, and the bench would measure itself.
 */
export async function startCpe(root: string, dataDir: string): Promise<CpeService & { logFile: string }> {
  const logFile = `${dataDir}.log`;
  const service = await startServiceChild(root, dataDir, { CPE_RATE_LIMIT: '0', CPE_LOG_FILE: logFile });
  return { child: service, url: service.url, token: service.credentials.accessToken, logFile };
}

/** What bare-koa.ts and json-server.cjs send once they listen (on port 0). */
interface Port {
  type: 'listening';
  port: number;
}
const isPort = (message: unknown): message is Port => (message as Port | undefined)?.type === 'listening';

/** A child server script of this folder that binds port 0 and sends its port (a `Port` message). */
async function startChild(root: string, name: string, args: string[]): Promise<{ child: Child; url: string }> {
  const child = spawnNode(name, args, { cwd: root });
  const { port } = await child.message(isPort, 'listening');
  return { child, url: `http://127.0.0.1:${port}` };
}

/** Bare Koa answering one JSON page from memory (bare-koa.ts): the framework's ceiling for a list. */
export const startBareKoa = (root: string, pageFile: string) =>
  startChild(root, 'bare Koa', ['--import', 'tsx', join(root, 'bench/messaging/bare-koa.ts'), pageFile]);

/** json-server 0.17.4's app as its own CLI builds it, on a db.json, without its request log (json-server.cjs). */
export const startJsonServer = (root: string, dbFile: string) => startChild(root, 'json-server', [join(root, 'bench/messaging/json-server.cjs'), dbFile]);
