/**
 * The folders' dependencies point one way: the Node client (client/, built into `cpe/server`) and
 * the API table (api/) know nothing of the service (server/) or the demo, so a merchant's backend
 * carries neither; the service never imports the demo (scripts/start.ts composes the two).
 */
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { describe, it } from 'node:test';

const root = new URL('../../', import.meta.url);
const relative = (file: URL) => file.pathname.slice(root.pathname.length);

/** Every relative import of `entry`, transitively: `types` true follows `import type` too. */
function closure(entry: string, types: boolean): { files: string[]; packages: string[] } {
  const files = new Set<string>();
  const packages = new Set<string>();
  const visit = (file: URL) => {
    if (files.has(relative(file))) return;
    files.add(relative(file));
    const text = readFileSync(file, 'utf8');
    // `import … from '…'`, `export … from '…'` (with `type`: types only) and `import '…'`.
    for (const match of text.matchAll(/^\s*(?:import|export)\s+(type\s+)?[^'";]*?from\s+'([^']+)'|^\s*import\s+'([^']+)'/gm)) {
      const spec = match[2] ?? match[3];
      if (match[1] && !types) continue;
      if (spec!.startsWith('.')) visit(new URL(spec!, file));
      else packages.add(spec!);
    }
  };
  visit(new URL(entry, root));
  return { files: [...files].sort(), packages: [...packages].sort() };
}

const filesOf = (folder: string) => readdirSync(new URL(folder, root)).filter((name) => name.endsWith('.ts')).map((name) => `${folder}${name}`);

describe('layers', () => {
  it('the Node client reaches only client/, api/ and protocol/, types included', () => {
    const { files } = closure('client/index.ts', true);
    assert.ok(files.includes('api/operations.ts'), 'walked into the table');
    assert.deepEqual(files.filter((file) => !/^(client|api|protocol)\//.test(file)), []);
  });

  it("at run time it runs the table's plain half (api/routes.ts) and Node's own modules: no zod", () => {
    const { files, packages } = closure('client/index.ts', false);
    assert.deepEqual(files.filter((file) => !file.startsWith('client/')), ['api/routes.ts', 'protocol/runtime/headers.ts']);
    assert.deepEqual(packages.filter((name) => !name.startsWith('node:')), []);
  });

  it('api/ imports nothing but itself, protocol/ and zod', () => {
    for (const entry of filesOf('api/')) {
      const { files, packages } = closure(entry, true);
      assert.deepEqual(files.filter((file) => !/^(api|protocol)\//.test(file)), [], entry);
      assert.deepEqual(packages.filter((name) => !/^zod(\/|$)/.test(name)), [], entry);
    }
  });

  it('no file of the service (server/) imports the demo, the Node client or a script', () => {
    const files = readdirSync(new URL('server/', root), { recursive: true, encoding: 'utf8' }).filter((name) => name.endsWith('.ts'));
    assert.ok(files.length > 50, 'found the service');
    const offenders = files.flatMap((name) => {
      const file = new URL(`server/${name}`, root);
      return [...readFileSync(file, 'utf8').matchAll(/from\s+'(\.[^']+)'/g)].map((m) => relative(new URL(m[1]!, file))).filter((target) => /^(demo|client|scripts)\//.test(target)).map((target) => `server/${name} → ${target}`);
    });
    assert.deepEqual(offenders, []);
  });

  it('test/ and bench/ do not import each other, and testkit/ (which both use) imports neither', () => {
    const importsOf = (folder: string) =>
      readdirSync(new URL(folder, root), { recursive: true, encoding: 'utf8' })
        .filter((name) => /\.(ts|mts|mjs|cjs|js)$/.test(name) && !name.includes('node_modules'))
        .flatMap((name) => {
          const file = new URL(`${folder}${name}`, root);
          // `import … from`, `import '…'` and `import('…')` alike.
          return [...readFileSync(file, 'utf8').matchAll(/(?:from\s+|import\s*\(?\s*)'(\.[^']+)'/g)].map((m) => ({ from: `${folder}${name}`, to: relative(new URL(m[1]!, file)) }));
        });
    const offenders = [
      ...importsOf('test/').filter(({ to }) => to.startsWith('bench/')),
      ...importsOf('bench/').filter(({ to }) => to.startsWith('test/')),
      ...importsOf('testkit/').filter(({ to }) => /^(test|bench)\//.test(to)),
    ].map(({ from, to }) => `${from} → ${to}`);
    assert.deepEqual(offenders, []);
  });
});
