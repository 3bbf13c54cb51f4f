import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join, posix } from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildSync } from 'esbuild';
import type { Plugin } from 'vite';
import { FORM_MARK } from '../iframe-app/frame-page.ts';

/**
 * Makes each built frame page one response: its entry module and its stylesheets go inline into
 * index.html, so the frame's first paint costs no second round trip after the page arrives (a new
 * frame's renderer only asks for subresources once it has parsed the page; measured in bench/sdk).
 * The language catalogues stay separate chunks, loaded only for the language in use.
 *
 * In a bridge frame (`earlyInit`), a small classic script goes first: it keeps the parent's `init`
 * (with its port) until the app has loaded, so the handshake runs while the app's code compiles.
 * iframe-app/shared/host.ts takes the kept messages through the same checks as later ones.
 *
 * The service allows each inline script and style by its hash (server/http/static-assets.ts reads
 * them from the page), so the frames' CSP still has no 'unsafe-inline'.
 */
export function inlineFrameEntry(assetsBase: string, options: { earlyInit: boolean; scripts?: boolean }): Plugin {
  return {
    name: 'cpe:inline-frame-entry',
    apply: 'build',
    // After Vite's own post-processing (the preload helper is filled in at generateBundle): the files as written.
    writeBundle({ dir }, bundle) {
      if (!dir) throw new Error('inline frame entry: the build has no output folder');
      const at = (fileName: string) => join(dir, fileName);
      for (const page of Object.values(bundle)) {
        if (page.type !== 'asset' || !page.fileName.endsWith('.html')) continue;
        let html = readFileSync(at(page.fileName), 'utf8');
        // A page the service renders a form into: its code goes after the form and the first-paint
        // script, so the parser reaches the form (and the hello) without compiling the module first.
        const formPage = html.includes(FORM_MARK);
        let moved = '';
        // `scripts: false` (the dashboard): the entry stays a file, which Chromium compiles off the
        // main thread while it downloads; an inline script is compiled on it, after the page is parsed.
        if (options.scripts !== false) html = html.replace(/<script type="module" crossorigin src="([^"]+)"><\/script>/g, (_tag, src: string) => {
          const chunk = bundle[src.slice(assetsBase.length)];
          if (!chunk || chunk.type !== 'chunk') throw new Error(`inline frame entry: ${src} is not a chunk of this build`);
          if (chunk.imports.length) throw new Error(`inline frame entry: ${chunk.fileName} imports ${chunk.imports.join(', ')}; build each frame on its own`);
          let code = readFileSync(at(chunk.fileName), 'utf8');
          // Relative to the chunk's folder once; inline, they would resolve against the page's.
          for (const dynamic of chunk.dynamicImports) {
            const name = posix.basename(dynamic).replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
            code = code.replace(new RegExp(`(["'\`])\\./${name}\\1`, 'g'), `$1${assetsBase}${dynamic}$1`);
          }
          const left = /.{0,60}["'`]\.\/.{0,40}/.exec(code);
          if (left) throw new Error(`inline frame entry: ${chunk.fileName} keeps a relative import: ${left[0]}`);
          rmSync(at(chunk.fileName));
          const hello = options.earlyInit ? `<script>${earlyInit()}</script>` : '';
          const module = `<script type="module">${safeInline(code, chunk.fileName)}</script>`;
          return formPage ? ((moved = module), hello) : `${hello}\n    ${module}`;
        });
        html = html.replace(/<link rel="modulepreload" crossorigin href="[^"]+">\s*/g, '');
        html = html.replace(/<link rel="stylesheet" crossorigin href="([^"]+)">/g, (_tag, href: string) => {
          const sheet = bundle[href.slice(assetsBase.length)];
          if (!sheet || sheet.type !== 'asset') throw new Error(`inline frame entry: ${href} is not an asset of this build`);
          const css = readFileSync(at(sheet.fileName), 'utf8');
          rmSync(at(sheet.fileName));
          return `<style>${safeInline(css, sheet.fileName)}</style>`;
        });
        // The card form's page: the service puts the form at the mark (iframe-app/ssr/render.ts); the first-paint script follows it.
        html = html.replace(FORM_MARK, () => `${FORM_MARK}<script>${firstPaint()}</script>${moved}`);
        if ((options.scripts !== false && /<script[^>]+src=/.test(html)) || /<link rel="stylesheet"/.test(html)) throw new Error(`inline frame entry: ${page.fileName} still loads a script or stylesheet`);
        writeFileSync(at(page.fileName), html);
      }
    },
  };
}

/** Text that cannot end its element early nor switch the HTML parser into a comment state. */
function safeInline(text: string, name: string): string {
  if (/<\/(script|style)|<!--/i.test(text)) throw new Error(`inline frame entry: ${name} contains a closing tag or <!-- and cannot go inline`);
  return text;
}

let cachedFirstPaint: string | undefined;

/** iframe-app/shared/first-paint.ts as one classic script (an IIFE, minified): it runs before the page's first paint. */
export function firstPaint(): string {
  cachedFirstPaint ??= safeInline(
    buildSync({
      entryPoints: [fileURLToPath(new URL('../iframe-app/shared/first-paint.ts', import.meta.url))],
      bundle: true,
      write: false,
      format: 'iife',
      minify: true,
      target: 'es2022',
      legalComments: 'none',
    }).outputFiles[0]!.text.trim(),
    'first-paint.ts',
  );
  return cachedFirstPaint;
}

let cachedInit: string | undefined;

/** The classic script that keeps an early init (see iframe-app/shared/early-init.js). */
export function earlyInit(): string {
  cachedInit ??= readFileSync(new URL('../iframe-app/shared/early-init.js', import.meta.url), 'utf8')
    .replace(/\/\*[\s\S]*?\*\/\s*/g, '')
    .replace(/\n\s*/g, '');
  return cachedInit;
}
