/**
 * What the browser downloads from the service, measured on dist/: gzip -9 (node:zlib, level 9) of
 * each file, summed over files (each is its own request, compressed on its own).
 *
 * The asset walker starts from a page or module and follows what the browser fetches before the
 * page can run: `<script src>` and `<link href>` in HTML (and static imports in inline module
 * scripts), static `import`/`export … from` in JS (parsed with Vite's own parser, so strings and
 * comments never count as imports), `@import` and `url()` in CSS. Dynamic `import()` targets are
 * listed apart as lazy: fetched only when the code asks for them, not in the static figure.
 * Addresses are resolved as the browser does against the file's served URL (`/sdk/…` is dist/sdk,
 * `/frames/…` is dist/frames), so both relative and base-absolute references work.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { gzipSync } from 'node:zlib';
import { parseSync } from 'vite';

export const gzipSize = (bytes: Uint8Array | string): number => gzipSync(bytes, { level: 9 }).length;

export interface FileSize {
  /** Path under dist/. */
  file: string;
  raw: number;
  gzip: number;
}

export interface Graph {
  /** Files fetched up front, in discovery order. */
  files: FileSize[];
  raw: number;
  gzip: number;
  /** Files reachable only through dynamic import(), not counted above. */
  lazy: FileSize[];
  /** References to other origins or to files that do not exist in dist/ (not counted). */
  unresolved: string[];
}

/** The service's origin as the walker pretends it is: only the path matters. */
const ORIGIN = 'http://service.invalid';
/** URL path prefix → folder under dist/. */
const MOUNTS: Array<[string, string]> = [
  ['/sdk/', 'sdk'],
  ['/frames/', 'frames'],
];

export class AssetWalker {
  readonly #sizes = new Map<string, FileSize>();
  constructor(readonly dist: string) {}

  /** dist-relative path ('frames/card-form/index.html') → the URL the service serves it at. */
  urlOf(distPath: string): URL {
    const posix = distPath.split(sep).join('/');
    for (const [prefix, folder] of MOUNTS) {
      if (posix === folder || posix.startsWith(`${folder}/`)) return new URL(prefix + posix.slice(folder.length + 1), ORIGIN);
    }
    throw new Error(`${distPath} is not served by the service (not under dist/sdk or dist/frames)`);
  }

  /** A served URL → dist-relative path, or undefined when it is another origin or not a file in dist/. */
  fileOf(url: URL): string | undefined {
    if (url.origin !== ORIGIN) return undefined;
    let path = decodeURIComponent(url.pathname);
    for (const [prefix, folder] of MOUNTS) {
      if (!path.startsWith(prefix)) continue;
      if (path.endsWith('/')) path += 'index.html';
      const distPath = folder + '/' + path.slice(prefix.length);
      const full = join(this.dist, distPath);
      // No escaping dist/ through '..' (URL parsing already normalises it, but be sure).
      if (!full.startsWith(join(this.dist, folder) + sep)) return undefined;
      return existsSync(full) && statSync(full).isFile() ? distPath : undefined;
    }
    return undefined;
  }

  /** A path the service serves (`/frames/card-form/`) → dist-relative file, as fileOf. */
  fileOfPath(pathname: string): string | undefined {
    return this.fileOf(new URL(pathname, ORIGIN));
  }

  /** Sizes of files, each once, summed. */
  measure(files: string[]): { files: FileSize[]; raw: number; gzip: number } {
    const sizes = [...new Set(files)].map((file) => this.size(file));
    return { files: sizes, raw: sizes.reduce((n, f) => n + f.raw, 0), gzip: sizes.reduce((n, f) => n + f.gzip, 0) };
  }

  size(distPath: string): FileSize {
    let known = this.#sizes.get(distPath);
    if (!known) {
      const bytes = readFileSync(join(this.dist, distPath));
      known = { file: distPath, raw: bytes.length, gzip: gzipSize(bytes) };
      this.#sizes.set(distPath, known);
    }
    return known;
  }

  /** Everything fetched up front for these starting files (dist-relative), each file once. */
  walk(starts: string[]): Graph {
    const eager = new Set<string>();
    const lazy = new Set<string>();
    const unresolved = new Set<string>();
    const queue: Array<{ file: string; lazy: boolean }> = starts.map((file) => ({ file, lazy: false }));
    while (queue.length > 0) {
      const { file, lazy: isLazy } = queue.shift()!;
      if (eager.has(file) || (isLazy && lazy.has(file))) continue;
      (isLazy ? lazy : eager).add(file);
      const base = this.urlOf(file);
      for (const ref of this.references(file)) {
        let url: URL;
        try {
          url = new URL(ref.specifier, base);
        } catch {
          unresolved.add(`${ref.specifier} (in ${file}: not a URL)`);
          continue;
        }
        url.search = '';
        url.hash = '';
        const target = this.fileOf(url);
        if (!target) {
          unresolved.add(`${url.origin === ORIGIN ? url.pathname : url.href} (in ${file})`);
          continue;
        }
        queue.push({ file: target, lazy: isLazy || ref.lazy });
      }
    }
    for (const file of eager) lazy.delete(file);
    const files = [...eager].map((file) => this.size(file));
    return {
      files,
      raw: files.reduce((n, f) => n + f.raw, 0),
      gzip: files.reduce((n, f) => n + f.gzip, 0),
      lazy: [...lazy].map((file) => this.size(file)),
      unresolved: [...unresolved],
    };
  }

  /** The references in one file, by its kind. */
  references(distPath: string): Array<{ specifier: string; lazy: boolean }> {
    const text = readFileSync(join(this.dist, distPath), 'utf8');
    if (/\.html?$/.test(distPath)) return htmlReferences(text, distPath);
    if (/\.m?js$/.test(distPath)) return jsReferences(text, distPath);
    if (distPath.endsWith('.css')) return cssReferences(text).map((specifier) => ({ specifier, lazy: false }));
    return [];
  }
}

/** Attributes of one start tag: name (lower case) → value (entities &amp; &quot; &#39; decoded). */
function attributes(tag: string): Map<string, string> {
  const found = new Map<string, string>();
  const body = tag.replace(/^<[a-zA-Z]+/, '').replace(/\/?>$/, '');
  for (const match of body.matchAll(/([^\s"'>\/=]+)(?:\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s"'=<>`]+)))?/g)) {
    const value = match[2] ?? match[3] ?? match[4] ?? '';
    found.set(match[1].toLowerCase(), value.replace(/&quot;/g, '"').replace(/&#39;/g, "'").replace(/&amp;/g, '&'));
  }
  return found;
}

/**
 * `<script src>` and `<link href>` (stylesheet, modulepreload, preload, icon, manifest: the browser
 * fetches them all for the page), and static imports inside inline module scripts. Comments are
 * dropped first; `<link rel=prefetch>` is lazy (fetched idle, for later).
 */
export function htmlReferences(html: string, name = 'page.html'): Array<{ specifier: string; lazy: boolean }> {
  const refs: Array<{ specifier: string; lazy: boolean }> = [];
  const source = html.replace(/<!--[\s\S]*?-->/g, '');
  for (const match of source.matchAll(/<(script|link)\b(?:[^>"']|"[^"]*"|'[^']*')*>/gi)) {
    const tag = match[0];
    const attrs = attributes(tag);
    if (match[1].toLowerCase() === 'script') {
      const src = attrs.get('src');
      if (src) {
        refs.push({ specifier: src, lazy: false });
      } else if (attrs.get('type') === 'module') {
        const end = source.indexOf('</script', match.index! + tag.length);
        const code = source.slice(match.index! + tag.length, end < 0 ? undefined : end);
        refs.push(...jsReferences(code, `${name} (inline module)`));
      }
    } else {
      const href = attrs.get('href');
      const rel = (attrs.get('rel') ?? '').toLowerCase().split(/\s+/);
      if (href && !rel.includes('dns-prefetch') && !rel.includes('preconnect')) {
        refs.push({ specifier: href, lazy: rel.includes('prefetch') });
      }
    }
  }
  return refs;
}

/** Static imports and re-exports (eager), and dynamic import() of a string literal (lazy). */
export function jsReferences(code: string, name = 'module.js'): Array<{ specifier: string; lazy: boolean }> {
  const parsed = parseSync(name.endsWith('.js') ? name : 'module.js', code, { sourceType: 'module', lang: 'js' });
  if (parsed.errors.length > 0) throw new Error(`${name}: cannot parse as an ES module: ${parsed.errors[0].message}`);
  const refs: Array<{ specifier: string; lazy: boolean }> = [];
  for (const item of parsed.module.staticImports) refs.push({ specifier: item.moduleRequest.value, lazy: false });
  for (const item of parsed.module.staticExports) {
    for (const entry of item.entries) if (entry.moduleRequest) refs.push({ specifier: entry.moduleRequest.value, lazy: false });
  }
  for (const item of parsed.module.dynamicImports) {
    const expression = code.slice(item.moduleRequest.start, item.moduleRequest.end).trim();
    const literal = /^(["'`])([^"'`$]*)\1$/.exec(expression);
    if (literal) refs.push({ specifier: literal[2], lazy: true });
  }
  return refs;
}

/** `@import` and `url()` targets in a stylesheet (data: URLs are inline, not fetched). */
export function cssReferences(css: string): string[] {
  const refs: string[] = [];
  const source = css.replace(/\/\*[\s\S]*?\*\//g, '');
  for (const match of source.matchAll(/@import\s+(?:url\(\s*)?(["']?)([^"')\s;]+)\1/g)) refs.push(match[2]);
  for (const match of source.matchAll(/url\(\s*(["']?)([^"')]+?)\1\s*\)/g)) refs.push(match[2]);
  return [...new Set(refs)].filter((ref) => !ref.startsWith('data:') && !ref.startsWith('#'));
}

/** Files a browser never loads: TypeScript declarations and source maps. */
export const notLoaded = (file: string) => /\.d\.[cm]?ts$/.test(file) || file.endsWith('.map');

/** Every file under a folder, dist-relative, sorted. */
export function filesUnder(dist: string, folder: string): string[] {
  const out: string[] = [];
  const visit = (dir: string) => {
    if (!existsSync(dir)) return;
    for (const item of readdirSync(dir, { withFileTypes: true })) {
      const full = join(dir, item.name);
      if (item.isDirectory()) visit(full);
      else if (item.isFile()) out.push(relative(dist, full));
    }
  };
  visit(join(dist, folder));
  return out.sort();
}

/** The frame apps built: each folder of dist/frames (other than the shared assets/) with an index.html. */
export function frameApps(dist: string): string[] {
  const dir = join(dist, 'frames');
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { withFileTypes: true })
    .filter((item) => item.isDirectory() && item.name !== 'assets' && existsSync(join(dir, item.name, 'index.html')))
    .map((item) => item.name)
    .sort();
}
