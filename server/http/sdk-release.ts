import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

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
}

const repoRoot = join(import.meta.dirname, '../..');
export const SDK_VERSION: string = JSON.parse(readFileSync(join(repoRoot, 'package.json'), 'utf8')).version;

/** The immutable path's shape; the hash names one build. */
export const RELEASE_PATH = /^\/sdk\/v([^/]+)\/cpe\.([0-9a-f]{16})\.js$/;

export function sdkRelease(body: Buffer, version = SDK_VERSION): SdkRelease {
  const digest = createHash('sha384').update(body).digest();
  return { version, path: `/sdk/v${version}/cpe.${digest.toString('hex').slice(0, 16)}.js`, integrity: `sha384-${digest.toString('base64')}` };
}

/** The line a merchant page puts in its HTML to load this build, checked by the browser. */
export const sdkScriptTag = (serviceUrl: string, release: SdkRelease) =>
  `<script type="module" src="${serviceUrl}${release.path}" integrity="${release.integrity}" crossorigin="anonymous"></script>`;

/** The release of the built SDK in `distDir` (dist/ by default); undefined before `npm run build`. */
export function readSdkRelease(distDir = join(repoRoot, 'dist')): SdkRelease | undefined {
  try {
    return sdkRelease(readFileSync(join(distDir, 'sdk/cpe.js')));
  } catch {
    return undefined;
  }
}
