import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, request, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { after, before, describe, it } from 'node:test';
import Koa from 'koa';
import type { AppState } from '../../server/http/app-state.ts';
import { errorMapper } from '../../server/http/error-mapper.ts';
import { frameHeaders, staticAssets } from '../../server/http/static-assets.ts';
import { parseCsp } from '../../testkit/stack.ts';
import { CATALOGUES } from '../../i18n/catalogues.ts';

const CATALOGUE_TAGS = Object.keys(CATALOGUES);

/** The static file middleware over a throwaway dist/, behind the service's error mapper. */
async function serve(distDir: string, frameAncestors?: () => string[]) {
  const app = new Koa<AppState>();
  app.silent = true;
  app.use(errorMapper());
  app.use(staticAssets({ distDir, frameAncestors }));
  app.use(async (ctx, next) => {
    if (ctx.path === '/frames/tokenise' && ctx.method === 'POST') ctx.body = { routed: true };
    else await next();
  });
  const server: Server = createServer(app.callback());
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return { url, close: () => new Promise<void>((resolve) => (server.close(() => resolve()), server.closeAllConnections())) };
}

describe('static assets: /sdk and /frames', () => {
  let dir: string;
  before(() => {
    dir = mkdtempSync(join(tmpdir(), 'cpe-dist-'));
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  it('answers 503 sdk_not_built with the contract error object before a build', async () => {
    const { url, close } = await serve(join(dir, 'empty'));
    try {
      const response = await fetch(`${url}/sdk/cpe.js`);
      assert.equal(response.status, 503);
      assert.equal(response.headers.get('access-control-allow-origin'), '*');
      const body = await response.json();
      assert.deepEqual(Object.keys(body.error).sort(), ['code', 'message', 'param', 'type']);
      assert.equal(body.error.type, 'api_error');
      assert.equal(body.error.code, 'sdk_not_built');
      assert.match(body.error.message, /npm run build/);
      assert.equal(body.error.param, null);
    } finally {
      await close();
    }
  });

  it('serves frame pages with a strict CSP, and their assets; falls through for routes', async () => {
    const dist = join(dir, 'dist');
    mkdirSync(join(dist, 'frames/card-form'), { recursive: true });
    mkdirSync(join(dist, 'frames/assets'), { recursive: true });
    writeFileSync(join(dist, 'frames/card-form/index.html'), '<!doctype html><title>card</title>');
    writeFileSync(join(dist, 'frames/assets/card-form-AbCd1234.js'), 'export {}');
    const { url, close } = await serve(dist, () => ['https://shop.example', 'not a url', 'https://shop.example/path']);
    try {
      for (const path of ['/frames/card-form/', '/frames/card-form', '/frames/card-form/index.html']) {
        const page = await fetch(url + path);
        assert.equal(page.status, 200, path);
        assert.match(page.headers.get('content-type') ?? '', /^text\/html/);
        const csp = parseCsp(page.headers.get('content-security-policy'));
        assert.deepEqual(csp.get('default-src'), ["'self'"]);
        assert.deepEqual(csp.get('frame-ancestors'), ['https://shop.example']);
        assert.equal(page.headers.get('referrer-policy'), 'same-origin');
        assert.equal(page.headers.get('x-content-type-options'), 'nosniff');
      }
      const asset = await fetch(`${url}/frames/assets/card-form-AbCd1234.js`);
      assert.equal(asset.status, 200);
      assert.match(asset.headers.get('content-type') ?? '', /^text\/javascript/);
      assert.match(asset.headers.get('cache-control') ?? '', /immutable/);

      const tokenise = await fetch(`${url}/frames/tokenise`, { method: 'POST' });
      assert.deepEqual(await tokenise.json(), { routed: true });
      assert.equal((await fetch(`${url}/frames/challenge`)).status, 404);
      assert.equal((await fetch(`${url}/frames/..%2f..%2fetc/passwd`)).status, 404);
      assert.equal((await fetch(`${url}/frames/.secret`)).status, 404);
    } finally {
      await close();
    }
  });

  it('answers text files compressed as the request accepts (brotli, then gzip), each encoding with its own ETag', async () => {
    const dist = join(dir, 'dist-encoded');
    mkdirSync(join(dist, 'frames/card-form'), { recursive: true });
    mkdirSync(join(dist, 'sdk'), { recursive: true });
    const page = `<!doctype html><title>card</title><script type="module">${'console.log(1);'.repeat(200)}</script>`;
    writeFileSync(join(dist, 'frames/card-form/index.html'), page);
    writeFileSync(join(dist, 'sdk/cpe.js'), `export const x = '${'a'.repeat(2000)}';`);
    writeFileSync(join(dist, 'sdk/small.js'), 'export {}');
    const { url, close } = await serve(dist, () => ['https://shop.example']);
    // node:http, not fetch: fetch asks for every encoding itself and decodes the body.
    const get = (path: string, headers: Record<string, string>) =>
      new Promise<{ status: number; headers: IncomingHttpHeaders; body: Buffer }>((resolve, reject) => {
        request(url + path, { headers }, (response) => {
          const chunks: Buffer[] = [];
          response.on('data', (chunk: Buffer) => chunks.push(chunk));
          response.on('end', () => resolve({ status: response.statusCode!, headers: response.headers, body: Buffer.concat(chunks) }));
        })
          .on('error', reject)
          .end();
      });
    try {
      const plain = await get('/frames/card-form/', { 'Sec-Fetch-Dest': 'iframe' });
      assert.equal(plain.headers['content-encoding'], undefined);
      assert.equal(plain.body.toString(), page);
      const gzip = await get('/frames/card-form/', { 'Accept-Encoding': 'gzip, deflate', 'Sec-Fetch-Dest': 'iframe' });
      assert.equal(gzip.headers['content-encoding'], 'gzip');
      assert.equal(gunzipSync(gzip.body).toString(), page);
      assert.ok(gzip.body.length < page.length / 4, `${gzip.body.length} bytes`);
      assert.deepEqual(String(gzip.headers.vary).split(/,\s*/).sort(), ['Accept-Encoding', 'Sec-Fetch-Dest']);
      // The frame's CSP and its inline hashes are the page's, whatever the encoding.
      assert.equal(gzip.headers['content-security-policy'], plain.headers['content-security-policy']);
      const br = await get('/frames/card-form/', { 'Accept-Encoding': 'gzip, deflate, br', 'Sec-Fetch-Dest': 'iframe' });
      assert.equal(br.headers['content-encoding'], 'br');
      assert.equal(brotliDecompressSync(br.body).toString(), page);
      const etags = new Set([plain, gzip, br].map((r) => r.headers.etag));
      assert.equal(etags.size, 3, [...etags].join(' '));
      assert.equal((await get('/frames/card-form/', { 'Accept-Encoding': 'gzip', 'If-None-Match': gzip.headers.etag! })).status, 304);
      assert.equal((await get('/frames/card-form/', { 'Accept-Encoding': 'br', 'If-None-Match': gzip.headers.etag! })).status, 200);
      const sdk = await get('/sdk/cpe.js', { 'Accept-Encoding': 'gzip' });
      assert.equal(sdk.headers['content-encoding'], 'gzip');
      assert.equal(sdk.headers['access-control-allow-origin'], '*');
      // Under 1 KiB: as it is.
      assert.equal((await get('/sdk/small.js', { 'Accept-Encoding': 'gzip' })).headers['content-encoding'], undefined);
    } finally {
      await close();
    }
  });

  it("allows a frame page's inline scripts and styles by their hashes, and no other inline code", async () => {
    const dist = join(dir, 'dist-inline');
    mkdirSync(join(dist, 'frames/flow'), { recursive: true });
    const script = "parent.postMessage('hi', '*')";
    const style = 'body{margin:0}';
    writeFileSync(join(dist, 'frames/flow/index.html'), `<!doctype html><script>${script}</script><script type="module">${script};</script><script src="/x.js"></script><style>${style}</style>`);
    const { url, close } = await serve(dist);
    try {
      const csp = parseCsp((await fetch(`${url}/frames/flow/`)).headers.get('content-security-policy'));
      const hash = (text: string) => `'sha256-${createHash('sha256').update(text).digest('base64')}'`;
      assert.deepEqual(csp.get('script-src'), ["'self'", hash(script), hash(`${script};`)]);
      assert.deepEqual(csp.get('style-src'), ["'self'", hash(style)]);
    } finally {
      await close();
    }
  });

  it('the built frame pages carry their code inline (one response each; only language catalogues are files)', () => {
    const frames = join(import.meta.dirname, '../../dist/frames');
    for (const app of ['card-form', 'field', 'flow', 'wallet-button', 'wallet-sheet']) {
      const html = readFileSync(join(frames, app, 'index.html'), 'utf8');
      assert.doesNotMatch(html, /<script[^>]+src=|<link[^>]+rel="(stylesheet|modulepreload)"/, app);
      assert.match(html, /<script type="module">/, app);
      // The bridge frames keep an init that comes while their code compiles; the card form's page
      // says hello from the script after its served form, before its first paint (scripts/vite-inline-frame.ts).
      assert.equal(html.includes('window.__cpeEarly = []'), app !== 'wallet-sheet', app);
      assert.equal(html.includes('<!--cpe:form--><script>') && html.includes('type:"hello"'), app === 'card-form', app);
    }
    // One file per language but English (built in), named by its tag and a content hash.
    const catalogue = new RegExp(`^(${CATALOGUE_TAGS.join('|')})-[\\w-]{8}\\.js$`);
    const assets = readdirSync(join(frames, 'assets'));
    assert.deepEqual(assets.filter((f) => !catalogue.test(f)), []);
    assert.equal(assets.length, CATALOGUE_TAGS.length);
  });

  it("frameHeaders defaults to frame-ancestors 'none'", () => {
    const csp = parseCsp(frameHeaders([])['Content-Security-Policy']);
    assert.deepEqual(csp.get('frame-ancestors'), ["'none'"]);
    assert.deepEqual(csp.get('default-src'), ["'self'"]);
    assert.deepEqual(parseCsp(frameHeaders(['javascript:alert(1)'])['Content-Security-Policy']).get('frame-ancestors'), ["'none'"]);
  });
});
