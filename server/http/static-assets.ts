import { createHash } from 'node:crypto';
import { readdir, readFile, stat } from 'node:fs/promises';
import { promisify } from 'node:util';
import { PassThrough } from 'node:stream';
import { brotliCompress, constants as zlib, createBrotliCompress, createGzip, gzip } from 'node:zlib';
import { dirname, extname, join, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Middleware, Next, ParameterizedContext } from 'koa';
import { ApiError } from './api-error.ts';
import type { AppState } from './app-state.ts';
import { frameSecurityHeaders, type FrameSecurityOptions } from './frame-security.ts';
import { renderFramePage, rendersForm, warmFrameRenderer } from './frame-render.ts';
import { CHUNK_FILE, pinnedChunk, RELEASE_PATH, sdkPinning, sdkRelease, type SdkRelease } from './sdk-release.ts';
import { dashboardPageHeaders } from '../dashboard/page-security.ts';

type Context = ParameterizedContext<AppState>;

/**
 * The built browser code, served by the service:
 *
 *   GET /sdk/cpe.js        dist/sdk: the SDK module that merchant pages import cross-origin.
 *   GET /sdk/v<version>/cpe.<hash>.js   the same bytes at an immutable address, for Subresource
 *                          Integrity; GET /sdk/integrity.json names it (sdk-release.ts).
 *   GET /frames/<app>/…    dist/frames: the hosted iframe apps and their assets, with a strict CSP.
 *   GET /dashboard, /dashboard/<page>…   dist/dashboard/index.html (the dashboard app, which reads
 *                          its address), with its own strict CSP; GET /dashboard/assets/… its files.
 *                          /dashboard/api/… is the dashboard's API (server/dashboard/dashboard-routes.ts).
 *
 * Only GET and HEAD of files that exist are answered; anything else falls through to the routers
 * (so `POST /frames/tokenise` and `GET /frames/challenge` belong to the payments router). The one
 * exception: the SDK's addresses before `npm run build` are a 503 that says so.
 */
export interface StaticAssetsOptions {
  /** The folder holding sdk/ and frames/; default: dist/ at the repository root. */
  distDir?: string;
  /**
   * The origins allowed to embed a frame page (CSP `frame-ancestors`), decided per request: the
   * payments side resolves them from the frame's session. Default: none, so no page can frame it.
   * Never taken from a query parameter that the embedding page controls.
   */
  frameAncestors?: (ctx: Context) => string[] | Promise<string[]>;
  /** The service's public URL, for the absolute address in /sdk/integrity.json; default: the request's own origin. */
  publicUrl?: () => string;
  /**
   * The data a request's dashboard page carries (server/dashboard/first-page.ts: the signed-in
   * session's first answers), put into the page as a JSON data block; undefined: the built page as is.
   */
  dashboardFirstPage?: (ctx: Context) => Promise<DashboardFirstPage | undefined>;
}

/** A signed-in page's first data: the paths under /dashboard/api it answers, known at once, and the answers, read meanwhile. */
export interface DashboardFirstPage {
  paths: string[];
  data: Promise<object | undefined>;
}

/** The dashboard page's first data: a data block (never run) at the end of its body, which the app reads. */
const DASHBOARD_FIRST_DATA = '<script type="application/json" id="dash-first">';
/** Its boot script's table, before which the meta naming that data's paths goes. */
const DASHBOARD_BOOT_MARK = '<script type="application/json" id="dash-chunks">';

/** The paths of the browser code this serves (anything else is the routers'). */
export const BROWSER_CODE = /^\/(sdk|frames)\//;

/** The dashboard's page (every address of the app) and its files; not its API. */
export const DASHBOARD_PAGE = /^\/dashboard(?:\/(?!api(?:\/|$))[^]*)?$/;

const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '../..');

const TYPES: Record<string, string> = {
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.html': 'text/html; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.map': 'application/json; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.webp': 'image/webp',
  '.woff2': 'font/woff2',
  '.txt': 'text/plain; charset=utf-8',
};

/** The SDK is re-fetched within minutes of a deploy; the ETag makes the re-fetch a 304. */
const SDK_CACHE = 'public, max-age=300';
/** Vite's hashed file names never change content. */
const IMMUTABLE = 'public, max-age=31536000, immutable';

/** The security headers of a hosted frame page, for the merchant origins that may embed it. */
export const frameHeaders = (ancestors: readonly string[] = [], hashes?: InlineHashes, fetchDest?: string) => frameSecurityHeaders({ ancestors, hashes, fetchDest });

/** A chunk of the SDK (name-hash.js) asked for beside its immutable address. */
const RELEASE_CHUNK = /^\/sdk\/v[^/]+\/([\w-]+-[\w-]{8,}\.js)$/;

/** Loaded by any merchant page, cross-origin, as a module script (which needs CORS), also from a cross-origin-isolated one. */
const SDK_HEADERS = {
  'Access-Control-Allow-Origin': '*',
  'Cross-Origin-Resource-Policy': 'cross-origin',
  'X-Content-Type-Options': 'nosniff',
} as const;

type InlineHashes = NonNullable<FrameSecurityOptions['hashes']>;

/** CSP hash sources of a page's inline scripts and styles (the built frames carry their code inline). */
export function inlineHashes(html: string): InlineHashes {
  const hash = (text: string) => `sha256-${createHash('sha256').update(text).digest('base64')}`;
  const bodies = (re: RegExp) => [...html.matchAll(re)].map((match) => hash(match[1]!));
  // Not a script with src, nor a data block (type="application/json": never run, so no hash to allow).
  return { script: bodies(/<script(?![^>]*\s(?:src=|type="application\/json"))[^>]*>([\s\S]*?)<\/script>/gi), style: bodies(/<style[^>]*>([\s\S]*?)<\/style>/gi) };
}

const etagOf = (body: Buffer) => `"${createHash('sha256').update(body).digest('base64url').slice(0, 27)}"`;

interface CachedFile {
  mtimeMs: number;
  size: number;
  body: Buffer;
  etag: string;
  /** Compressed once, on first request of each (text files of 1 KiB and more). */
  encoded?: Partial<Record<Encoding, Promise<Buffer>>>;
  /** Of an HTML page: its inline scripts' and styles' hashes, for its CSP. */
  hashes?: InlineHashes;
  /** Of the SDK: its immutable address and every file's integrity, made on first use. */
  release?: SdkRelease;
  /** Of a chunk of the SDK: its copy for the immutable address (its import of the entry naming that address). */
  pinned?: { release: string; file: CachedFile };
  /** Of a page the service renders a form into (the card form): each address's page, by what it depends on. */
  rendered?: Map<string, Promise<CachedFile>>;
}

/** Rendered pages kept per built page: 6 layouts × 3 themes × 3 marks in a few languages. */
const RENDERED_KEPT = 500;

type Encoding = 'br' | 'gzip';
const COMPRESSIBLE = new Set(['.js', '.mjs', '.css', '.html', '.json', '.map', '.svg', '.txt']);
const brotli = promisify(brotliCompress);
const gzipped = promisify(gzip);
/** In zlib's thread pool, not on the event loop: brotli's best quality takes some 50 ms for a frame page. */
const ENCODE: Record<Encoding, (body: Buffer) => Promise<Buffer>> = {
  br: (body) => brotli(body, { params: { [zlib.BROTLI_PARAM_QUALITY]: 11, [zlib.BROTLI_PARAM_SIZE_HINT]: body.length } }),
  gzip: (body) => gzipped(body, { level: 9 }),
};

/**
 * The best encoding the request accepts (brotli, then gzip) for text files of 1 KiB and more (a first
 * visit downloads the card frame page in about a third of its bytes), and the ETag of the body in it:
 * each encoding has its own (a cache must not answer one encoding's request with the other's bytes).
 */
function encodingFor(ctx: Context, file: CachedFile, path: string): { etag: string; encoding?: Encoding } {
  if (!COMPRESSIBLE.has(extname(path)) || file.body.length < 1024) return { etag: file.etag };
  ctx.vary('Accept-Encoding');
  const encoding = (['br', 'gzip'] as const).find((name) => ctx.acceptsEncodings(name) === name);
  return encoding ? { etag: `${file.etag.slice(0, -1)}-${encoding}"`, encoding } : { etag: file.etag };
}

/** `path` under `base`, or undefined if it would leave it, is hidden, or cannot be decoded. */
function safeJoin(base: string, path: string): string | undefined {
  let decoded: string;
  try {
    decoded = decodeURIComponent(path);
  } catch {
    return undefined;
  }
  if (decoded.includes('\0') || decoded.includes('\\')) return undefined;
  const segments = decoded.split('/').filter(Boolean);
  if (segments.some((s) => s === '..' || s.startsWith('.'))) return undefined;
  const full = resolve(base, ...segments);
  return full.startsWith(base + sep) ? full : undefined;
}

const dashboardNotBuilt = () =>
  new ApiError('dashboard_not_built', 'The dashboard has not been built: run npm run build (npm start builds it when missing).', null, { 'Retry-After': '10' });

const sdkNotBuilt = () =>
  new ApiError('sdk_not_built', 'The browser SDK has not been built: run npm run build (npm start builds it when missing).', null, {
    'Access-Control-Allow-Origin': '*',
    'Retry-After': '10',
  });

export function staticAssets(options: StaticAssetsOptions = {}): Middleware<AppState> {
  const dist = resolve(options.distDir ?? join(repoRoot, 'dist'));
  const sdkDir = join(dist, 'sdk');
  const framesDir = join(dist, 'frames');
  const dashboardDir = join(dist, 'dashboard');
  const frameAncestors = options.frameAncestors ?? (() => []);
  const cache = new Map<string, CachedFile>();

  async function load(file: string): Promise<CachedFile | undefined> {
    let info;
    try {
      info = await stat(file);
    } catch {
      return undefined;
    }
    if (!info.isFile()) return undefined;
    const hit = cache.get(file);
    if (hit && hit.mtimeMs === info.mtimeMs && hit.size === info.size) return hit;
    const body = await readFile(file);
    const entry = { mtimeMs: info.mtimeMs, size: info.size, body, etag: etagOf(body), hashes: file.endsWith('.html') ? inlineHashes(body.toString('utf8')) : undefined };
    cache.set(file, entry);
    return entry;
  }

  /**
   * The page of this address: a built page with the form's mark gets the form rendered into it
   * (frame-render.ts), once per language, layout, theme and marks, then served like a file (its own
   * ETag, compressed once, its inline scripts and styles allowed by hash).
   */
  async function pageFor(ctx: Context, file: CachedFile): Promise<CachedFile> {
    if (!rendersForm(file.body.toString('latin1'))) return file;
    const { key, html } = await renderFramePage(file.body.toString('utf8'), new URLSearchParams(ctx.querystring));
    const rendered = (file.rendered ??= new Map());
    let page = rendered.get(key);
    if (!page) {
      if (rendered.size >= RENDERED_KEPT) rendered.delete(rendered.keys().next().value!);
      page = html().then((text) => {
        const body = Buffer.from(text);
        return { mtimeMs: file.mtimeMs, size: body.length, body, etag: etagOf(body), hashes: inlineHashes(text) };
      });
      page.catch(() => rendered.delete(key));
      rendered.set(key, page);
    }
    return page;
  }

  async function send(ctx: Context, file: CachedFile, path: string, headers: Record<string, string>) {
    ctx.status = 200;
    ctx.set(headers);
    const { etag, encoding } = encodingFor(ctx, file, path);
    ctx.set('ETag', etag);
    ctx.set('Last-Modified', new Date(file.mtimeMs).toUTCString());
    if (ctx.fresh) {
      ctx.status = 304;
      return;
    }
    ctx.type = TYPES[extname(path)] ?? 'application/octet-stream';
    if (encoding) ctx.set('Content-Encoding', encoding);
    ctx.body = encoding ? await ((file.encoded ??= {})[encoding] ??= ENCODE[encoding](file.body)) : file.body;
  }

  /** The built SDK's release: its immutable address and every file's integrity (sdk-release.ts), kept with the entry's bytes. */
  async function releaseOf(entry: CachedFile): Promise<SdkRelease> {
    if (entry.release) return entry.release;
    const names = (await readdir(sdkDir)).filter((name) => CHUNK_FILE.test(name));
    const chunks = await Promise.all(names.map((name) => load(join(sdkDir, name))));
    return (entry.release = sdkRelease(entry.body, Object.fromEntries(names.flatMap((name, i) => (chunks[i] ? [[name, chunks[i]!.body]] : [])))));
  }

  /** The SDK's immutable address (only the current build's: another hash is a 404 naming it), or its description. */
  async function sendRelease(ctx: Context) {
    const path = join(sdkDir, 'cpe.js');
    const file = await load(path);
    if (!file) throw sdkNotBuilt();
    const release = await releaseOf(file);
    const serviceUrl = options.publicUrl?.() ?? ctx.origin;
    if (ctx.path === '/sdk/integrity.json') {
      ctx.set({ ...SDK_HEADERS, 'Cache-Control': 'no-cache' });
      ctx.body = { version: release.version, url: `${serviceUrl}${release.path}`, integrity: release.integrity, ...sdkPinning(serviceUrl, release) };
      return;
    }
    if (ctx.path !== release.path)
      throw new ApiError('resource_missing', `This SDK build is not served here: the current one is ${serviceUrl}${release.path} with integrity ${release.integrity} (see ${serviceUrl}/sdk/integrity.json).`, null, SDK_HEADERS);
    await send(ctx, file, path, { ...SDK_HEADERS, 'Cache-Control': IMMUTABLE });
  }

  /**
   * A chunk the SDK imports on demand (components/internal/load-chunks.ts), beside its immutable
   * address, importing that address's file (`pinnedChunk`): the bytes the import map's integrity names.
   */
  async function sendReleaseChunk(ctx: Context, next: Next, name: string) {
    const entry = await load(join(sdkDir, 'cpe.js'));
    if (!entry) throw sdkNotBuilt();
    const release = await releaseOf(entry);
    const path = join(sdkDir, name);
    const file = await load(path);
    if (!file || !ctx.path.startsWith(`/sdk/v${release.version}/`)) return next();
    if (file.pinned?.release !== release.path) {
      const body = pinnedChunk(file.body, release.path);
      file.pinned = { release: release.path, file: { mtimeMs: file.mtimeMs, size: body.length, body, etag: etagOf(body) } };
    }
    await send(ctx, file.pinned.file, path, { ...SDK_HEADERS, 'Cache-Control': IMMUTABLE });
  }

  // Anything but a GET or HEAD under /sdk/ or /frames/ goes straight on, without an async frame.
  return (ctx, next) => {
    if ((ctx.method !== 'GET' && ctx.method !== 'HEAD') || !(BROWSER_CODE.test(ctx.path) || DASHBOARD_PAGE.test(ctx.path))) return next();
    return serve(ctx, next);
  };

  /** A file of the dashboard's build, or its page for any other address under /dashboard. */
  async function serveDashboard(ctx: Context, next: Next): Promise<void> {
    if (ctx.path.startsWith('/dashboard/assets/')) {
      const path = safeJoin(dashboardDir, ctx.path.slice('/dashboard/'.length));
      const file = path && (await load(path));
      if (!file || !path) return next();
      await send(ctx, file, path, { 'X-Content-Type-Options': 'nosniff', 'Cross-Origin-Resource-Policy': 'same-origin', 'Cache-Control': IMMUTABLE });
      return;
    }
    const path = join(dashboardDir, 'index.html');
    const file = await load(path);
    if (!file) throw dashboardNotBuilt();
    // HEAD: the built page's headers; its data is read only for a page that is sent.
    const first = ctx.method === 'GET' ? await options.dashboardFirstPage?.(ctx) : undefined;
    if (!first) return send(ctx, file, path, dashboardPageHeaders(file.hashes));
    sendFirstPage(ctx, file.body.toString('utf8'), file.hashes, first);
  }

  /**
   * A signed-in visit's page, made for this answer only (no ETag, never stored): sent in two parts.
   * First all of it but the end of its body, with a meta naming the answers to come (the boot script
   * asks for none of them), so the browser fetches and compiles the app while the service reads the
   * data; then the data block and the end. Compressed as it goes, flushed after the first part. A
   * read that fails leaves the block out: the app asks for what it lacks.
   */
  function sendFirstPage(ctx: Context, html: string, hashes: InlineHashes | undefined, first: DashboardFirstPage): void {
    const end = html.lastIndexOf('</body>');
    if (!html.includes(DASHBOARD_BOOT_MARK) || end < 0) throw new Error(`dashboard page: it has no ${DASHBOARD_BOOT_MARK} or </body> to put its first data at`);
    const meta = `<meta name="dash-first" content="${first.paths.join(' ').replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;')}">\n    `;
    ctx.status = 200;
    ctx.set(dashboardPageHeaders(hashes, 'no-store'));
    ctx.type = TYPES['.html']!;
    ctx.vary('Accept-Encoding');
    const encoding = (['br', 'gzip'] as const).find((name) => ctx.acceptsEncodings(name) === name);
    if (encoding) ctx.set('Content-Encoding', encoding);
    const out = encoding === 'br' ? createBrotliCompress({ params: { [zlib.BROTLI_PARAM_QUALITY]: 5 } }) : encoding === 'gzip' ? createGzip({ level: 6 }) : new PassThrough();
    ctx.body = out;
    out.write(html.slice(0, end).replace(DASHBOARD_BOOT_MARK, () => meta + DASHBOARD_BOOT_MARK));
    if (!(out instanceof PassThrough)) out.flush(encoding === 'br' ? zlib.BROTLI_OPERATION_FLUSH : zlib.Z_SYNC_FLUSH);
    void first.data
      .catch(() => undefined)
      .then((data) => {
        // The browser has gone (Koa destroys the body then): nothing to finish.
        if (out.destroyed) return;
        // `<` escaped: the JSON cannot close its element or open a comment, whatever its strings hold.
        if (data) out.write(`${DASHBOARD_FIRST_DATA}${JSON.stringify(data).replace(/</g, '\\u003c')}</script>\n  `);
        out.end(html.slice(end));
      });
  }

  async function serve(ctx: Context, next: Next): Promise<void> {
    if (DASHBOARD_PAGE.test(ctx.path)) return serveDashboard(ctx, next);
    if (ctx.path === '/sdk/integrity.json' || RELEASE_PATH.test(ctx.path)) return sendRelease(ctx);
    const chunk = RELEASE_CHUNK.exec(ctx.path);
    if (chunk) return sendReleaseChunk(ctx, next, chunk[1]!);
    if (ctx.path.startsWith('/sdk/')) {
      // A page loading the SDK is about to ask for a frame: Lit's renderer loads meanwhile.
      warmFrameRenderer();
      const path = safeJoin(sdkDir, ctx.path.slice('/sdk/'.length));
      const file = path && (await load(path));
      if (!file || !path) {
        if (ctx.path === '/sdk/cpe.js') throw sdkNotBuilt();
        return next();
      }
      await send(ctx, file, path, { ...SDK_HEADERS, 'Cache-Control': /-[\w-]{8,}\.\w+$/.test(path) ? IMMUTABLE : SDK_CACHE });
      return;
    }

    if (ctx.path.startsWith('/frames/')) {
      const rest = ctx.path.slice('/frames/'.length);
      const base = safeJoin(framesDir, rest);
      if (!base) return next();
      // `/frames/card-form/` and `/frames/card-form` both mean that app's index.html.
      const candidates = extname(base) ? [base] : [join(base, 'index.html')];
      for (const path of candidates) {
        const file = await load(path);
        if (!file) continue;
        if (path.endsWith('.html')) {
          const [page, ancestors] = await Promise.all([pageFor(ctx, file), frameAncestors(ctx)]);
          await send(ctx, page, path, frameHeaders(ancestors, page.hashes, ctx.get('sec-fetch-dest') || undefined));
        } else {
          await send(ctx, file, path, {
            'X-Content-Type-Options': 'nosniff',
            'Cross-Origin-Resource-Policy': 'same-origin',
            'Cache-Control': rest.startsWith('assets/') ? IMMUTABLE : 'no-cache',
          });
        }
        return;
      }
      return next();
    }

    return next();
  }
}
