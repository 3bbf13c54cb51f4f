import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build, defineConfig, type InlineConfig, type Plugin, type UserConfig } from 'vite';
import { framePage, FRAME_APPS } from './iframe-app/frame-page.ts';
import { marksSprite } from './iframe-app/shared/marks.ts';
import { inlineFrameEntry } from './scripts/vite-inline-frame.ts';
import { minifyCssTemplates } from './scripts/vite-minify-css.ts';
import { terserPass } from './scripts/vite-terser.ts';
import { packageBuild } from './scripts/vite-package.ts';

/**
 * `npm run build` (one `vite build`) makes two things:
 *
 *   dist/sdk/cpe.js     the browser SDK: one minified ES module, loaded cross-origin by merchant
 *                       pages (`components/index.ts`). No Lit and no zod: it validates with the
 *                       guards generated from protocol/'s zod schemas (protocol/runtime/guards.ts).
 *   dist/frames/<app>/  the hosted iframe apps, one per `iframe-app/<app>/main.ts`, served by the
 *                       service under `/frames/<app>/`: one page each with its code inline, the
 *                       language catalogues in dist/frames/assets/, the card schemes' marks in
 *                       dist/frames/marks.svg, and dist/frames/keep/ (an empty page, see frame.ts).
 *   dist/pages/challenge.js   the 3-D Secure challenge page's script (iframe-app/challenge-page/),
 *                       which the service puts inline into each challenge page it renders.
 *   dist/dashboard/     the dashboard (dashboard/, a Lit app): index.html with its styles inline,
 *                       served by the service at `/dashboard` and every page under it; assets/ holds
 *                       its shell module, a chunk per page and its icon.
 *
 * The SDK build is this file's config; the frames build runs after it (plugin `framesBuild`), one
 * build per frame app, so a new frame is a new folder with a main.ts and its line in iframe-app/frame-page.ts.
 */
const root = dirname(fileURLToPath(import.meta.url));
const framesRoot = join(root, 'iframe-app');

/** Browsers the SDK and frames support: evergreen (ES2022, native custom elements, shadow DOM). */
const target = 'es2022';

/**
 * Lit's decorators as tsconfig.json has them (`experimentalDecorators`, `useDefineForClassFields:
 * false`), stated here too: Vite reads tsconfig only for files its `include` covers, and without
 * these a decorator is left in the bundle as a SyntaxError and Lit's reactive fields are shadowed.
 */
const oxc: UserConfig['oxc'] = {
  decorator: { legacy: true },
  assumptions: { setPublicClassFields: true },
  typescript: { removeClassFieldsWithoutInitializer: true },
};

/**
 * Each frame app (`iframe-app/<name>/main.ts`) is one frame page, served at `/frames/<name>/`: its
 * index.html is not a file but iframe-app/frame-page.ts's page for it (`framePages`).
 */
export function frameEntries(dir = framesRoot): Record<string, string> {
  const entries: Record<string, string> = {};
  for (const name of FRAME_APPS) if (existsSync(join(dir, name, 'main.ts'))) entries[name] = join(dir, name, 'index.html');
  return entries;
}

/** Serves each frame's index.html from the one page source (iframe-app/frame-page.ts). */
function framePages(pages: Record<string, string>): Plugin {
  const byPath = new Map(Object.entries(pages).map(([name, page]) => [page, framePage(name)!]));
  return {
    name: 'cpe:frame-pages',
    enforce: 'pre',
    resolveId: (id) => (byPath.has(id) ? id : undefined),
    load: (id) => byPath.get(id),
  };
}

/**
 * One frame page, built on its own (no chunks shared with the other frames) so that its whole entry
 * goes inline into its index.html (scripts/vite-inline-frame.ts); only the language catalogues are
 * files, in dist/frames/assets/. `emptyOutDir`: the first frame's build clears dist/frames.
 */
export function framesConfig(name: string, page: string, options: { emptyOutDir: boolean }, dirs = { root: framesRoot, outDir: join(root, 'dist/frames') }): InlineConfig {
  return {
    configFile: false,
    root: dirs.root,
    base: '/frames/',
    publicDir: false,
    logLevel: 'warn',
    oxc,
    plugins: [framePages({ [name]: page }), cardFormPage(name), minifyCssTemplates(), terserPass(), inlineFrameEntry('/frames/', { earlyInit: speaksBridge(page) })],
    build: {
      outDir: dirs.outDir,
      emptyOutDir: options.emptyOutDir,
      target,
      minify: true,
      // Keep every asset a file under 'self': the frames' CSP has no data: for scripts or styles.
      assetsInlineLimit: 0,
      modulePreload: { polyfill: false },
      rolldownOptions: { input: { [name]: page } },
    },
  };
}

/**
 * What the card form's page has already, its build takes from there rather than carrying a second
 * copy: the English catalogue (the elements' default and the fallback) is the page's own texts, which
 * the service renders into every card form page (iframe-app/ssr/render.ts), the styles are those of
 * the served form, and the fields' arrangement, the theme and the page's texts are the first-paint
 * script's (iframe-app/shared/first-paint-api.ts).
 */
const CARD_FORM_PAGE_TAKES: Record<string, string> = {
  '../i18n/en.ts': 'card-form/page-catalogue.ts',
  'shared/arrange.ts': 'card-form/page-arrange.ts',
  'shared/theme.ts': 'card-form/page-theme.ts',
  'shared/texts.ts': 'card-form/page-texts.ts',
  'shared/styles.ts': 'card-form/page-styles.ts',
};
function cardFormPage(name: string): Plugin {
  const takes = new Map(Object.entries(CARD_FORM_PAGE_TAKES).map(([from, to]) => [join(framesRoot, from), join(framesRoot, to)]));
  // A module moved away (i18n/ left iframe-app/) would quietly bring its second copy back into the page.
  for (const [from, to] of takes) if (!existsSync(from) || !existsSync(to)) throw new Error(`cardFormPage: ${relative(root, existsSync(from) ? to : from)} does not exist`);
  return {
    name: 'cpe:card-form-page',
    enforce: 'pre',
    async resolveId(source, importer, options) {
      if (name !== 'card-form' || !importer || !/\/(en|arrange|theme|texts|styles)\.ts$/.test(source)) return undefined;
      const resolved = await this.resolve(source, importer, { ...options, skipSelf: true });
      return resolved && takes.get(resolved.id);
    },
  };
}

/** A frame that runs the bridge (its main.ts calls startFrame) gets the early hello. */
const speaksBridge = (page: string) => /\bstartFrame\(/.test(readFileSync(join(dirname(page), 'main.ts'), 'utf8'));

/**
 * The 3-D Secure challenge page's script (iframe-app/challenge-page/main.ts) as one module, minified
 * like the frames' code: the service renders the page and puts this inline, allowed by its hash
 * (server/payments/challenge-page.ts).
 */
async function challengePageBuild(): Promise<void> {
  const output = (await build({
    configFile: false,
    logLevel: 'warn',
    oxc,
    build: { write: false, target, minify: true, lib: { entry: join(framesRoot, 'challenge-page/main.ts'), formats: ['es'] }, rolldownOptions: { output: { minify: true, comments: false } } },
  })) as { output: { type: string; code?: string }[] }[];
  const code = output[0]!.output.find((item) => item.type === 'chunk')!.code!.trim();
  if (/<\/script|<!--/i.test(code)) throw new Error('challenge page script: it contains a closing tag or <!-- and cannot go inline');
  mkdirSync(join(root, 'dist/pages'), { recursive: true });
  writeFileSync(join(root, 'dist/pages/challenge.js'), code);
}

function framesBuild(): Plugin {
  let done = false;
  return {
    name: 'cpe:frames-build',
    apply: 'build',
    async closeBundle(error?: Error) {
      if (done || error) return;
      done = true;
      const entries = Object.entries(frameEntries());
      for (const [i, [name, page]] of entries.entries()) await build(framesConfig(name, page, { emptyOutDir: i === 0 }));
      // The card schemes' marks, one sprite every card frame shares (iframe-app/shared/marks.ts).
      writeFileSync(join(root, 'dist/frames/marks.svg'), marksSprite());
      // The empty page the SDK keeps hidden so that the service's renderer process outlives a remount (components/internal/frame.ts).
      mkdirSync(join(root, 'dist/frames/keep'), { recursive: true });
      writeFileSync(join(root, 'dist/frames/keep/index.html'), '<!doctype html><meta charset="utf-8"><title>CPE</title>\n');
      await challengePageBuild();
    },
  };
}

const dashboardRoot = join(root, 'dashboard');

/**
 * The dashboard's build: its page with the stylesheet inline (scripts/vite-inline-frame.ts, as the
 * frames; allowed by hash in its CSP), its shell as one module (Lit, sign-in, the router), and one
 * chunk per page (pages/*.ts) with the pieces pages share. The boot script (dashboard/boot.ts, put
 * inline by `inlineDashboardBoot`) preloads the chunks of the address's page beside the shell, so the
 * first page costs no round trip after the shell's, and no other page's code.
 */
export function dashboardConfig(dirs = { root: dashboardRoot, outDir: join(root, 'dist/dashboard') }): InlineConfig {
  return {
    configFile: false,
    root: dirs.root,
    base: '/dashboard/',
    publicDir: false,
    logLevel: 'warn',
    oxc,
    plugins: [inlineFrameEntry('/dashboard/', { earlyInit: false, scripts: false })],
    build: {
      outDir: dirs.outDir,
      emptyOutDir: true,
      target,
      minify: true,
      // Its CSP has no data: for scripts or styles: every asset a file.
      assetsInlineLimit: 0,
      modulePreload: { polyfill: false },
      // Which chunks each page needs, for the boot script (read, then removed, by inlineDashboardBoot).
      manifest: true,
      rolldownOptions: {
        input: join(dirs.root, 'index.html'),
        output: {
          codeSplitting: {
            groups: [
              // The first page's code, one module: the shell (with Lit and the API client, which the
              // other pages import from it) and Home, the first page.
              { name: 'index', test: /[\\/]dashboard[\\/](main|app[\\/](?!timeline|types|event-types)[\w-]+|pages[\\/]home|ui[\\/](element|charts))\.ts$|[\\/]node_modules[\\/](lit|lit-html|lit-element|@lit[\\/][\w-]+)[\\/]/, priority: 2 },
              // What several other pages share (dialogs, the pager…) is one chunk, not one request each.
              { name: 'shared', test: /[\\/]dashboard[\\/](ui[\\/]|app[\\/](timeline|types|event-types)\.ts)/, minShareCount: 2, includeDependenciesRecursively: false, priority: 1 },
            ],
          },
        },
      },
    },
  };
}

interface ManifestEntry {
  file: string;
  src?: string;
  isEntry?: boolean;
  imports?: string[];
}

/** Each page's chunks (its own and the shared ones it imports, not the shell's), from Vite's manifest: page name → URLs. */
function pageChunks(outDir: string): Record<string, string[]> {
  const manifestFile = join(outDir, '.vite/manifest.json');
  const manifest = JSON.parse(readFileSync(manifestFile, 'utf8')) as Record<string, ManifestEntry>;
  rmSync(join(outDir, '.vite'), { recursive: true, force: true });
  const shell = new Set<string>();
  const walk = (key: string, into: Set<string>) => {
    if (into.has(key)) return;
    into.add(key);
    for (const imported of manifest[key]?.imports ?? []) walk(imported, into);
  };
  // The shell: what the page's module script loads (the entry, or the group chunk it became: 'index').
  const entryFile = shellFile(outDir);
  for (const [key, entry] of Object.entries(manifest)) if (entry.isEntry || entry.file === entryFile) walk(key, shell);
  if (!shell.size) throw new Error(`dashboard build: ${entryFile} is not in the manifest`);
  const chunks: Record<string, string[]> = {};
  for (const [key, entry] of Object.entries(manifest)) {
    const page = /^pages\/([\w-]+)\.ts$/.exec(entry.src ?? '')?.[1];
    if (!page) continue;
    const needed = new Set<string>();
    walk(key, needed);
    chunks[page] = [...needed].filter((k) => !shell.has(k)).map((k) => `/dashboard/${manifest[k]!.file}`);
  }
  if (!Object.keys(chunks).length) throw new Error('dashboard build: no page chunks in the manifest (dashboard/pages/*.ts)');
  return chunks;
}

/** The file the dashboard page's module script loads, under the build's folder (assets/…). */
function shellFile(outDir: string): string {
  const src = /<script type="module" crossorigin src="\/dashboard\/([^"]+)"><\/script>/.exec(readFileSync(join(outDir, 'index.html'), 'utf8'))?.[1];
  if (!src) throw new Error('dashboard build: the page has no module script');
  return src;
}

/**
 * V8's compile hint on the shell's module (the first page's code): compiled whole while it streams
 * in, off the main thread, rather than function by function on it as Home first calls them.
 */
function compileShellEagerly(outDir: string): void {
  const file = join(outDir, shellFile(outDir));
  writeFileSync(file, `//# allFunctionsCalledOnLoad\n${readFileSync(file, 'utf8')}`);
}

/**
 * The dashboard's boot script (dashboard/boot.ts), built on its own as one classic script and put
 * inline at the top of the page's head with the table of each page's chunks: it starts the first
 * page's requests and preloads its code while the shell downloads and compiles (its CSP hash is read
 * from the page like the frames').
 */
async function inlineDashboardBoot(outDir: string): Promise<void> {
  const output = (await build({
    configFile: false,
    logLevel: 'warn',
    oxc,
    build: { write: false, target, minify: true, lib: { entry: join(dashboardRoot, 'boot.ts'), formats: ['iife'], name: 'dashboardBoot' } },
  })) as { output: { type: string; code?: string }[] }[];
  const code = output[0]!.output.find((item) => item.type === 'chunk')!.code!.trim();
  const chunks = JSON.stringify(pageChunks(outDir));
  if (/<\/script|<!--/i.test(code + chunks)) throw new Error('dashboard boot script: it contains a closing tag or <!-- and cannot go inline');
  const page = join(outDir, 'index.html');
  const html = readFileSync(page, 'utf8');
  if (!html.includes('<script type="module"')) throw new Error('dashboard boot script: the page has no module script to go before');
  writeFileSync(page, html.replace('<script type="module"', `<script type="application/json" id="dash-chunks">${chunks}</script>\n    <script>${code}</script>\n    <script type="module"`));
}

function dashboardBuild(): Plugin {
  let done = false;
  return {
    name: 'cpe:dashboard-build',
    apply: 'build',
    async closeBundle(error?: Error) {
      if (done || error) return;
      done = true;
      await build(dashboardConfig());
      await inlineDashboardBoot(join(root, 'dist/dashboard'));
      compileShellEagerly(join(root, 'dist/dashboard'));
    },
  };
}

/**
 * `dist/sdk/cpe.d.ts`: TypeScript declarations of every public type of the SDK, generated from the
 * sources (tsc --emitDeclarationOnly into dist/sdk/types/, and cpe.d.ts re-exporting its entry).
 * Types built from the protocol's zod schemas refer to `zod/mini`: a consumer without zod installed
 * sees those few as `any` (with skipLibCheck).
 */
function sdkDeclarations(): Plugin {
  return {
    name: 'cpe:sdk-declarations',
    apply: 'build',
    closeBundle(error?: Error) {
      if (error) return;
      const outDir = join(root, 'dist/sdk/types');
      const args = ['components/index.ts', '--ignoreConfig', '--declaration', '--emitDeclarationOnly', '--outDir', outDir, '--rootDir', '.',
        '--module', 'esnext', '--moduleResolution', 'bundler', '--target', 'es2022', '--lib', 'es2023,dom,dom.iterable', '--types', '',
        '--strict', '--skipLibCheck', '--verbatimModuleSyntax', '--allowImportingTsExtensions', '--experimentalDecorators', '--useDefineForClassFields', 'false'];
      const tsc = spawnSync(join(root, 'node_modules/.bin/tsc'), args, { cwd: root, encoding: 'utf8' });
      if (tsc.status !== 0) throw new Error(`SDK declarations: tsc failed\n${tsc.stdout}${tsc.stderr}`);
      writeFileSync(join(root, 'dist/sdk/cpe.d.ts'), "// The CPE browser SDK's types (generated by vite build).\nexport * from './types/components/index.ts';\n");
    },
  };
}

export default defineConfig({
  root,
  publicDir: false,
  oxc,
  plugins: [sdkDeclarations(), terserPass(), framesBuild(), dashboardBuild(), packageBuild(root)],
  build: {
    outDir: resolve(root, 'dist/sdk'),
    emptyOutDir: true,
    target,
    minify: true,
    sourcemap: false,
    reportCompressedSize: true,
    lib: {
      entry: resolve(root, 'components/index.ts'),
      formats: ['es'],
      fileName: () => 'cpe.js',
    },
    rolldownOptions: {
      // Everything is bundled: the merchant page loads one file from the service, and the chunks it
      // imports on demand (components/internal/load-chunks.ts). The entry may export what those
      // chunks take from it: with the default ('strict'), what they share went to a third file the
      // entry imported at once (one request and 0.2 KB of gzip more, nothing saved).
      external: [],
      preserveEntrySignatures: 'allow-extension',
      // No comments in the output: the minifier keeps /* @__PURE__ */ annotations otherwise (144 of them).
      output: { minify: true, comments: false },
    },
  },
});
