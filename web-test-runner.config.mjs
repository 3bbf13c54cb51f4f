// Component tests in real Chromium (Debian's, or CHROME_PATH): `npm run test:components`.
// Run `node scripts/ensure-chromium.mjs` first (the npm script does).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { esbuildPlugin } from '@web/dev-server-esbuild';
import { chromeLauncher } from '@web/test-runner-chrome';
import { register } from 'tsx/esm/api';
import { CHROMIUM_FLAGS, chromiumPath } from './scripts/chromium-path.mjs';
import { ensureBuilt } from './scripts/ensure-built.mjs';
import { frameCommands } from './test/components/frame-commands.mjs';

// CPE_TEST_TIME_SCALE (testkit/time.ts) multiplies every timeout, here and in the tests' pages.
const scale = Number(process.env.CPE_TEST_TIME_SCALE || 1);
if (!(scale > 0)) throw new Error(`CPE_TEST_TIME_SCALE is a positive number (1, 2, 0.5…), got '${process.env.CPE_TEST_TIME_SCALE}'.`);
const scaled = (ms) => Math.round(ms * scale);

/**
 * The real CPE service beside the test runner's dev server (another origin: 127.0.0.1 and port 0,
 * while tests run on localhost), with a test merchant of its own for each test file (its page's
 * `wtr-session-id`, from the Referer of the request: no file sees what another left, nor shares its
 * rate budgets) whose page origin is the test page's, and the merchant backend a shop would run, on
 * the dev server itself:
 *
 *   GET  /__cpe/config   {serviceUrl, publicKey}
 *   POST /__cpe/intent   creates a Payment Intent of £12.34 with the licence key (?purpose=verify: a
 *                        card verification, amount 0) and answers a PaymentIntentSession: the shop's
 *                        `createServerIntent` route
 *   GET  /__cpe/intent/:id   the Payment Intent as the shop's backend sees it (attempts included)
 *   POST /__cpe/mw/exchange   Checkout Context: every basket is priced £12.34 GBP
 *   POST /__cpe/mw/attach, /confirm, /authorise, /verify-auth, /exchange   cpeMiddleware's routes
 *   PUT  /__cpe/fake/<id>/answer, POST /__cpe/fake/<id>, GET /__cpe/fake/<id>/calls   a fake
 *                        merchant route: what it answers, the route, how often it was called
 *   GET  /intent, POST /frames/tokenise, /frames/wallet/*   a fake service for the frame apps
 *                        under test, scripted per session token (PUT/GET /__cpe/fake-service/<token>)
 *   GET  /iframe-app/<app>/index.html   a frame app's page (iframe-app/frame-page.ts)
 *   GET  /frames/marks.svg   the card schemes' marks (iframe-app/shared/marks.ts)
 *   GET  /frames/…?pk=pk_test_fake   a fake frame page (test/components/fixtures/fake-frame.ts) for
 *                        handshake tests whose controller uses the test server as its service
 *
 * The frames are served from dist/ (rebuilt first when a source is newer).
 */
function cpeService() {
  let service;
  let dataDir;
  let handle = (_ctx, next) => next();
  return {
    /** Runs before the dev server's own middleware (static files would answer /frames/… with a 404). */
    middleware: (ctx, next) => handle(ctx, next),
    plugin: {
    name: 'cpe-service',
    async serverStart() {
      register();
      if (!ensureBuilt({ quiet: true })) throw new Error('vite build failed: dist/ is missing.');
      const { startService } = await import('./server/start.ts');
      const { framePage, FORM_MARK } = await import('./iframe-app/frame-page.ts');
      const { CpeClient, cpeMiddleware, toSession } = await import('./client/index.ts');
      dataDir = mkdtempSync(join(tmpdir(), 'cpe-wtr-'));
      const off = { perSecond: 0, burst: 0 };
      service = await startService({
        port: 0,
        demoPort: 0,
        dataDir,
        publicUrl: 'http://127.0.0.1:0',
        rateLimit: off,
        tokeniseRateLimit: { perIp: off, perSession: off },
        log: { level: 'silent' },
      });
      const merchants = new Map();
      /** The card form pages rendered, by what changes them: promises, so that pages asked for at once render once. */
      const rendered = new Map();
      const merchantFor = (origin, suite) => {
        const key = `${origin} ${suite}`;
        if (!merchants.has(key))
          merchants.set(
            key,
            Promise.resolve(service.services.merchants.create({ origins: [origin] })).then((credentials) => {
              const client = new CpeClient({ licenceKey: credentials.licenceKey, baseUrl: service.url });
              // Checkout Context: the shop prices every basket at £12.34 (the SDK's context must agree).
              const exchange = (body) => ({ merchantid: credentials.merchantId, amount: 1234, currency: 'GBP', identifier: `wtr-basket-${body?.context?.reference ?? 'none'}-${++order}` });
              // The test page is the only shopper: every intent is its own (a shop would check its session).
              const allowIntent = () => true;
              return { ...credentials, client, routes: cpeMiddleware({ client, exchange, allowIntent }).router('/__cpe/mw').routes() };
            }),
          );
        return merchants.get(key);
      };
      let order = 0;
      const routes = [];
      const use = (fn) => routes.push(fn);
      handle = (ctx, next) => {
        const run = (i) => (i < routes.length ? routes[i](ctx, () => run(i + 1)) : next());
        return run(0);
      };
      use(async (ctx, next) => {
        // A frame app's page, from its one source (the build makes dist/frames/<app>/index.html from it).
        const app = /^\/iframe-app\/([a-z-]+)\/index\.html$/.exec(ctx.path)?.[1];
        let page = app && framePage(app);
        if (!page) return next();
        if (page.includes(FORM_MARK)) {
          // The card form's page as the service sends it: the form rendered in (Lit SSR), the early-init
          // and first-paint scripts inline as the build puts them. `__nomodule`: without the page's code
          // (a test types into the form before loading it).
          // Rendered once for what changes it, as the service does (server/http/static-assets.ts):
          // first-paint.test.ts alone asks for 1,908 pages, 954 different ones.
          const { renderCardFormPage, pageKey } = await import('./iframe-app/ssr/render.ts');
          const query = new URLSearchParams(ctx.querystring);
          const key = [app, pageKey(query), query.get('pk'), query.get('ok'), query.has('__nomodule')].join(' ');
          if (!rendered.has(key)) {
            const { earlyInit, firstPaint } = await import('./scripts/vite-inline-frame.ts');
            page = page.replace('<script type="module"', `<script>${earlyInit()}</script><script type="module"`).replace(FORM_MARK, `${FORM_MARK}<script>${firstPaint()}</script>`);
            if (query.has('__nomodule')) page = page.replace(/<script type="module"[^>]*><\/script>/, '');
            const render = renderCardFormPage(page, query);
            // As the service does: a failed render is tried again on the next request, not kept.
            render.catch(() => rendered.delete(key));
            rendered.set(key, render);
          }
          page = await rendered.get(key);
        }
        ctx.type = 'html';
        ctx.body = page;
      });
      use(async (ctx, next) => {
        // The card schemes' marks, as the service serves the build's sprite (iframe-app/shared/marks.ts).
        if (ctx.path !== '/frames/marks.svg') return next();
        const { marksSprite } = await import('./iframe-app/shared/marks.ts');
        ctx.type = 'image/svg+xml';
        ctx.body = marksSprite();
      });
      use(async (ctx, next) => {
        // A fake hosted frame for the handshake tests (their controller's service is the test server).
        if (ctx.path === '/frames/keep/') {
          // The page the SDK keeps hidden (components/internal/frame.ts): empty.
          ctx.type = 'html';
          ctx.body = '<!doctype html><title>CPE</title>';
          return;
        }
        if (ctx.path.startsWith('/frames/') && ctx.query.pk === 'pk_test_fake') {
          ctx.type = 'html';
          ctx.body = '<!doctype html><body style="margin:0"><script type="module" src="/test/components/fixtures/fake-frame.ts"></script>';
          return;
        }
        return next();
      });
      // Fake merchant routes (test/components/helpers.ts fakeRoute): PUT …/answer sets what POST
      // answers; GET …/calls counts the POSTs.
      const fakes = new Map();
      use(async (ctx, next) => {
        const [, id, action] = /^\/__cpe\/fake\/([\w-]+)(?:\/(answer|calls))?$/.exec(ctx.path) ?? [];
        if (!id) return next();
        const fake = fakes.get(id) ?? { answer: undefined, calls: 0 };
        fakes.set(id, fake);
        if (action === 'answer' && ctx.method === 'PUT') {
          fake.answer = JSON.parse(await new Promise((resolve) => {
            let text = '';
            ctx.req.on('data', (chunk) => (text += chunk)).on('end', () => resolve(text));
          }));
          ctx.status = 204;
        } else if (action === 'calls') ctx.body = { calls: fake.calls };
        else if (!action && ctx.method === 'POST') {
          fake.calls++;
          ctx.body = fake.answer;
        } else ctx.status = 405;
      });
      // A fake of the service for the frame apps under test (test/iframe-app/fake-service.ts): served
      // from this origin, they call GET /intent, POST /frames/tokenise and POST /frames/wallet/* here.
      // What a session token gets is scripted with PUT /__cpe/fake-service/<token> {routes: {'GET
      // /intent': answer or [answers, in order; the last repeats]}}, an answer being {status, body}
      // or {hang: true}; GET /__cpe/fake-service/<token> lists what the frames sent with it.
      // Unscripted: GET /intent answers session pi_1 of £12.34 (the frames' session check), others 404.
      const scripts = new Map();
      const readBody = (req) => new Promise((resolve) => {
        let text = '';
        req.on('data', (chunk) => (text += chunk)).on('end', () => resolve(text));
      });
      use(async (ctx, next) => {
        const scripted = /^\/__cpe\/fake-service\/([\w-]+)$/.exec(ctx.path)?.[1];
        if (scripted && ctx.method === 'PUT') {
          scripts.set(scripted, { routes: JSON.parse(await readBody(ctx.req)).routes ?? {}, seen: [] });
          ctx.status = 204;
          return;
        }
        if (scripted && ctx.method === 'GET') {
          ctx.body = scripts.get(scripted)?.seen ?? [];
          return;
        }
        const route = `${ctx.method} ${ctx.path}`;
        if (!['GET /intent', 'POST /frames/tokenise', 'POST /frames/wallet/sheet', 'POST /frames/wallet/approve'].includes(route)) return next();
        const script = scripts.get(ctx.get('x-cpe-session-token'));
        const text = ctx.method === 'POST' ? await readBody(ctx.req) : '';
        script?.seen.push({ method: ctx.method, path: ctx.path, headers: ctx.headers, body: text ? JSON.parse(text) : undefined });
        const answers = script?.routes[route];
        const answer = Array.isArray(answers) ? (answers.length > 1 ? answers.shift() : answers[0]) : answers;
        if (answer?.hang) return new Promise(() => {});
        if (answer) {
          ctx.status = answer.status ?? 200;
          ctx.body = answer.body ?? {};
        } else if (route === 'GET /intent') ctx.body = { paymentIntentId: 'pi_1', status: 'requires_payment_method', amount: 1234, currency: 'GBP', amount_formatted: '£12.34', moto: false, opaque_key: 'opq_fake' };
        else {
          ctx.status = 404;
          ctx.body = { error: { type: 'invalid_request_error', code: 'not_scripted', message: `${route} is not scripted for this session` } };
        }
      });
      use(async (ctx, next) => {
        if (!ctx.path.startsWith('/__cpe/')) return next();
        const suite = URL.canParse(ctx.get('referer')) ? new URL(ctx.get('referer')).searchParams.get('wtr-session-id') : null;
        const merchant = await merchantFor(`${ctx.protocol}://${ctx.host}`, suite ?? 'no session');
        if (ctx.path === '/__cpe/config') {
          ctx.body = { serviceUrl: service.url, publicKey: merchant.publicKey };
          return;
        }
        if (ctx.path.startsWith('/__cpe/intent/') && ctx.method === 'GET') {
          ctx.body = await merchant.client.retrievePaymentIntent(ctx.path.slice('/__cpe/intent/'.length));
          return;
        }
        if (ctx.path === '/__cpe/intent' && ctx.method === 'POST') {
          // ?purpose=verify: a card verification intent (amount 0).
          const verify = ctx.query.purpose === 'verify';
          const created = await merchant.client.createPaymentIntent({
            merchantid: merchant.merchantId,
            amount: verify ? 0 : 1234,
            currency: 'GBP',
            identifier: `wtr-order-${++order}`,
            ...(verify && { purpose: 'verify' }),
          });
          ctx.body = toSession(created);
          return;
        }
        return merchant.routes(ctx, next);
      });
    },
    async serverStop() {
      await service?.close();
      if (dataDir) rmSync(dataDir, { recursive: true, force: true });
    },
    },
  };
}

const cpe = cpeService();

export default {
  // Components and the iframe apps (test/iframe-app/).
  files: ['test/components/**/*.test.ts', 'test/iframe-app/**/*.test.ts'],
  // Lit's production build: no dev-mode warning in the output.
  nodeResolve: { exportConditions: ['production'] },
  middleware: [cpe.middleware],
  plugins: [esbuildPlugin({ ts: true, tsconfig: './tsconfig.json', target: 'es2022' }), cpe.plugin, frameCommands()],
  browsers: [
    chromeLauncher({
      launchOptions: { executablePath: chromiumPath(), headless: true, args: [...CHROMIUM_FLAGS] },
      // Every test page acts as the focused page, as Playwright's pages do: puppeteer's do not, and a
      // page that was not the browser's focused one had no frame focused, ever (a focus test then
      // failed once in a run, each time in another place).
      async createPage({ context }) {
        const page = await context.newPage();
        const cdp = await page.createCDPSession();
        await cdp.send('Emulation.setFocusEmulationEnabled', { enabled: true });
        return page;
      },
    }),
  ],
  // One page at a time: a background tab gets no animation frames (fixture() waits for one) and no
  // keyboard focus (sendKeys types into the focused frame).
  concurrency: 1,
  concurrentBrowsers: 1,
  // Per test file: a file's tests together. Only a guard against a page that never reports (a test
  // that hangs is ended by its own limit below), so far above the longest file on the busiest
  // machine: test/iframe-app/first-paint.test.ts (1,908 page loads) takes about 3 minutes alone at a
  // load average of 3, and took more than 10 (the guard was 10) in a CI run at a load average of 11
  // to 16.
  browserStartTimeout: scaled(120_000),
  testsStartTimeout: scaled(120_000),
  testsFinishTimeout: scaled(1_800_000),
  // A test's limit: generous, so a busy machine fails nothing that works (they await events, not
  // time); at a load average of 34 on two cores a file's first test, whose modules the dev server
  // compiles, took more than 15 s.
  testFramework: { config: { timeout: scaled(60_000) } },
  // The time scale, for testkit/time.ts in the page.
  testRunnerHtml: (testFramework) =>
    `<!doctype html><html><body><script>globalThis.__cpeTestTimeScale = ${scale};</script><script type="module" src="${testFramework}"></script></body></html>`,
};
