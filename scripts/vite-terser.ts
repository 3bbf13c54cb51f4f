import { createRequire } from 'node:module';
import { minify, type MinifyOptions } from 'terser';
import type { Plugin } from 'vite';

const OPTIONS: MinifyOptions = { module: true, compress: { passes: 2 }, format: { comments: false } };
/** Goes into every chunk's hash: a chunk's name changes with terser's version or options too (the SDK's chunks are served immutable). */
const SALT = `terser ${createRequire(import.meta.url)('terser/package.json').version} ${JSON.stringify(OPTIONS)}`;

/**
 * A second minifier over the bundler's output: terser (two passes) after oxc's minify. The SDK and
 * the frames are held to a gzip budget (bench/sdk), and the pair's output is smaller than either's
 * alone (gzip -9: the SDK 57 B, the card form page 136 B; terser alone, or before oxc, was larger).
 * Last in generateBundle: after the chunks' names are hashed (with the salt above in the hash) and
 * Vite has filled in its preload helper, before the frame pages inline their entry
 * (scripts/vite-inline-frame.ts, at writeBundle).
 */
export function terserPass(): Plugin {
  return {
    name: 'cpe:terser',
    apply: 'build',
    enforce: 'post',
    augmentChunkHash: () => SALT,
    generateBundle: {
      order: 'post',
      async handler(_options, bundle) {
        for (const chunk of Object.values(bundle)) if (chunk.type === 'chunk') chunk.code = (await minify(chunk.code, OPTIONS)).code!;
      },
    },
  };
}
