import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { basename, join } from 'node:path';

/**
 * The SDK at an immutable address, for Subresource Integrity (as Braintree and Adyen publish theirs):
 * `/sdk/v<version>/cpe.<first 16 hex digits of its SHA-384>.js` serves exactly the bytes the
 * integrity hash names, forever cacheable. `/sdk/cpe.js` keeps following each build.
 */
export interface SdkRelease {
  version: string;
  /** The immutable path, e.g. `/sdk/v0.1.0/cpe.3f2a9c0d1e4b5a6f.js`. */
  path: string;
  /** `sha384-<base64>` of the file, for the script tag's `integrity`. */
  integrity: string;
  /**
   * Each chunk the SDK imports on demand (the dialogs, the payment code), by file name: the
   * `sha384-<base64>` of its bytes as served beside `path` (`pinnedChunk`). A script tag's
   * `integrity` covers only its own file, so these go in an import map (`sdkPinning`).
   */
  chunks: Record<string, string>;
}

const repoRoot = join(import.meta.dirname, '../..');
export const SDK_VERSION: string = JSON.parse(readFileSync(join(repoRoot, 'package.json'), 'utf8')).version;

/** The immutable path's shape; the hash names one build. */
export const RELEASE_PATH = /^\/sdk\/v([^/]+)\/cpe\.([0-9a-f]{16})\.js$/;

/** A chunk's file name in dist/sdk (`<name>-<content hash>.js`). */
export const CHUNK_FILE = /^[\w-]+-[\w-]{8,}\.js$/;

const integrityOf = (body: Buffer) => `sha384-${createHash('sha384').update(body).digest('base64')}`;

/**
 * A chunk as served beside the immutable address `releasePath`: it imports that address's file, not
 * './cpe.js', which there would be a second copy of the SDK (another URL is another module).
 */
export const pinnedChunk = (body: Buffer, releasePath: string): Buffer => Buffer.from(body.toString('utf8').replaceAll('"./cpe.js"', `"./${basename(releasePath)}"`));

/** The release of the SDK module `entry` and its chunks (file name → bytes as built). */
export function sdkRelease(entry: Buffer, chunks: Record<string, Buffer> = {}, version = SDK_VERSION): SdkRelease {
  const digest = createHash('sha384').update(entry).digest();
  const path = `/sdk/v${version}/cpe.${digest.toString('hex').slice(0, 16)}.js`;
  return { version, path, integrity: `sha384-${digest.toString('base64')}`, chunks: Object.fromEntries(Object.entries(chunks).map(([name, body]) => [name, integrityOf(pinnedChunk(body, path))])) };
}

/**
 * What a merchant page puts in its HTML to load this build, every file checked by the browser: the
 * import map pinning the chunks (`chunks`: each one's absolute address → integrity; browsers apply an
 * import map's `integrity` to the modules they import, Chromium from 127), then the SDK's script tag.
 * `importmapHash` is the import map's CSP hash source, for a page whose `script-src` lists hashes.
 */
export function sdkPinning(serviceUrl: string, release: SdkRelease): { script: string; chunks: Record<string, string>; importmap: string; importmapHash: string } {
  const folder = `${serviceUrl}${release.path.slice(0, release.path.lastIndexOf('/') + 1)}`;
  const chunks = Object.fromEntries(Object.entries(release.chunks).map(([name, integrity]) => [`${folder}${name}`, integrity]));
  const map = JSON.stringify({ integrity: chunks });
  return {
    script: `<script type="module" src="${serviceUrl}${release.path}" integrity="${release.integrity}" crossorigin="anonymous"></script>`,
    chunks,
    importmap: `<script type="importmap">${map}</script>`,
    importmapHash: `sha256-${createHash('sha256').update(map).digest('base64')}`,
  };
}

/** The release of the built SDK in `distDir` (dist/ by default); undefined before `npm run build`. */
export function readSdkRelease(distDir = join(repoRoot, 'dist')): SdkRelease | undefined {
  const sdk = join(distDir, 'sdk');
  try {
    const chunks = Object.fromEntries(readdirSync(sdk).filter((name) => CHUNK_FILE.test(name)).map((name) => [name, readFileSync(join(sdk, name))]));
    return sdkRelease(readFileSync(join(sdk, 'cpe.js')), chunks);
  } catch {
    return undefined;
  }
}
