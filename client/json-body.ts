import type { IncomingMessage } from 'node:http';
import { errorAnswer, type RouteAnswer } from './cpe-routes.ts';

/** The SDK posts small JSON bodies; anything larger is not the SDK's. */
export const BODY_LIMIT = 64 * 1024;

/**
 * The JSON body of a request the SDK posted, read from the stream (at most 64 KB): the value, or
 * the answer to send instead (415 not JSON, 413 too large, 400 not parsable), in the service's
 * error shape. A body a framework has parsed already (`express.json()`, a Koa body parser) is used
 * as it is.
 */
export async function readJson(req: IncomingMessage, parsed?: unknown): Promise<{ body: unknown } | { answer: RouteAnswer }> {
  if (parsed !== undefined) return { body: parsed };
  const fail = (...why: Parameters<typeof errorAnswer>) => ({ answer: errorAnswer(...why) });
  if (!/^application\/(.+\+)?json\b/i.test(req.headers['content-type'] ?? '')) return fail('unsupported_media_type', 'Send the body as JSON (Content-Type: application/json).');
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > BODY_LIMIT) return fail('request_too_large', `The body is over ${BODY_LIMIT / 1024} KB.`);
    chunks.push(chunk);
  }
  try {
    return { body: JSON.parse(Buffer.concat(chunks).toString('utf8') || '{}') };
  } catch {
    return fail('body_invalid', 'The body is not valid JSON.');
  }
}
