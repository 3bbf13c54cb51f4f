import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, normalize } from 'node:path';
import { describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';

/**
 * The README and the pages of docs/ link to each other, to their sections and to the screenshots:
 * every relative link must name a file that exists and, with `#section`, a heading of it (GitHub's
 * anchors: lower case, punctuation dropped, spaces as dashes). Moving a section without its links
 * fails here.
 */
const root = join(dirname(fileURLToPath(import.meta.url)), '../..');
const pages = ['README.md', ...readdirSync(join(root, 'docs')).filter((f) => f.endsWith('.md')).map((f) => `docs/${f}`)];
/** Pages beside the README that link into it and docs/: checked too, but not required in the README's map. */
const others = ['ARCHITECTURE.md', 'CONTRIBUTING.md', 'SECURITY.md'];

const slug = (heading: string) =>
  heading
    .trim()
    .toLowerCase()
    .replace(/[`*_]/g, '')
    .replace(/[^\p{L}\p{N}\- ]/gu, '')
    .replace(/ /g, '-');

/** The anchors of a Markdown file's headings (outside code blocks). */
function anchors(file: string): Set<string> {
  const found = new Set<string>();
  let code = false;
  for (const line of readFileSync(join(root, file), 'utf8').split('\n')) {
    if (line.startsWith('```')) code = !code;
    else if (!code && /^#{1,6} /.test(line)) found.add(slug(line.replace(/^#+ /, '')));
  }
  return found;
}

describe('the documentation', () => {
  for (const page of [...pages, ...others])
    it(`${page}: every relative link and image names a file and section that exist`, () => {
      const broken: string[] = [];
      let code = false;
      for (const line of readFileSync(join(root, page), 'utf8').split('\n')) {
        if (line.startsWith('```')) code = !code;
        if (code) continue;
        for (const [, target] of line.matchAll(/\]\(([^)\s]+)\)/g)) {
          if (/^(https?:|mailto:)/.test(target!)) continue;
          const [path, anchor] = target!.split('#') as [string, string | undefined];
          const file = path ? normalize(join(dirname(page), path)) : page;
          if (!existsSync(join(root, file))) broken.push(`${target} (no ${file})`);
          else if (anchor && file.endsWith('.md') && !anchors(file).has(anchor)) broken.push(`${target} (no section "${anchor}" in ${file})`);
        }
      }
      assert.deepEqual(broken, []);
    });

  // The sections other work adds stay in the README below; its opening is the quickstart and the map.
  it('the README opens with a quickstart of a screen, then links every page of docs/', () => {
    const readme = readFileSync(join(root, 'README.md'), 'utf8');
    const opening = readme.slice(0, readme.indexOf('\n## Read on')).split('\n').length;
    assert.ok(opening <= 40, `the README's quickstart takes ${opening} lines`);
    for (const page of pages.filter((p) => p.startsWith('docs/'))) assert.ok(readme.includes(`](${page}`), `the README links ${page}`);
  });
});
