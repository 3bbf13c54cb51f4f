import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/**
 * The code blocks of the documentation, as the tests that run them read them: the first block of
 * `lang` (```js, ```html…) after the text `after` in `page` (a path from the repository's root, such
 * as `docs/components.md`), exactly as written there.
 */
export function docBlock(page: string, after: string, lang: string): string {
  const text = readFileSync(fileURLToPath(new URL(`../${page}`, import.meta.url)), 'utf8');
  const at = text.indexOf(after);
  if (at < 0) throw new Error(`${page} no longer says "${after}"`);
  const fence = `\`\`\`${lang}\n`;
  const start = text.indexOf(fence, at);
  if (start < 0) throw new Error(`${page} has no \`\`\`${lang} block after "${after}"`);
  return text.slice(start + fence.length, text.indexOf('\n```', start + fence.length) + 1);
}

/** The backend's last statement in the docs, and what a test hands it instead: a socket it bound (port 0). */
export const LISTEN_LINE = "app.listen(3000, () => console.log('Shop on http://localhost:3000'));";
export const LISTEN_ON_SOCKET = "process.once('message', (_, socket) => app.listen(socket, () => console.log('listening')));";
