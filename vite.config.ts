import { existsSync, readdirSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build, defineConfig, type InlineConfig, type Plugin, type UserConfig } from 'vite';

/**
 * `npm run build` (one `vite build`) makes two things:
 *
 *   dist/sdk/cpe.js     the browser SDK: one minified ES module with Lit and zod/mini inside,
 *                       loaded cross-origin by merchant pages (`components/index.ts`).
 *   dist/frames/<app>/  the hosted iframe apps, one per `iframe-app/<app>/index.html`, served by the
 *                       service under `/frames/<app>/` (shared chunks in dist/frames/assets/).
 *
 * The SDK build is this file's config; the frames build runs after it (plugin `framesBuild`) as a
 * multi-page build whose entries are discovered, so a new frame is just a new folder with an
 * index.html: no change here.
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

/** Each `iframe-app/<name>/index.html` is one frame page, served at `/frames/<name>/`. */
export function frameEntries(dir = framesRoot): Record<string, string> {
  if (!existsSync(dir)) return {};
  const entries: Record<string, string> = {};
  for (const item of readdirSync(dir, { withFileTypes: true })) {
    const page = join(dir, item.name, 'index.html');
    if (item.isDirectory() && existsSync(page)) entries[item.name] = page;
  }
  return entries;
}

/** The frames: a multi-page app rooted at iframe-app/, with base `/frames/`. */
export function framesConfig(input: Record<string, string>, dirs = { root: framesRoot, outDir: join(root, 'dist/frames') }): InlineConfig {
  return {
    configFile: false,
    root: dirs.root,
    base: '/frames/',
    publicDir: false,
    logLevel: 'warn',
    oxc,
    build: {
      outDir: dirs.outDir,
      emptyOutDir: true,
      target,
      minify: true,
      // Keep every asset a file under 'self': the frames' CSP has no data: for scripts or styles.
      assetsInlineLimit: 0,
      modulePreload: { polyfill: false },
      rolldownOptions: { input },
    },
  };
}

function framesBuild(): Plugin {
  let done = false;
  return {
    name: 'cpe:frames-build',
    apply: 'build',
    async closeBundle(error?: Error) {
      if (done || error) return;
      done = true;
      const input = frameEntries();
      if (Object.keys(input).length === 0) return;
      await build(framesConfig(input));
    },
  };
}

export default defineConfig({
  root,
  publicDir: false,
  oxc,
  plugins: [framesBuild()],
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
      // Everything (Lit, zod/mini) is bundled: the merchant page loads one file from the service.
      external: [],
      output: { minify: true },
    },
  },
});
