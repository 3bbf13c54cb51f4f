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

  it("at run time it runs the tables' plain halves (api/routes.ts, api/error-codes.ts) and Node's own modules: no zod", () => {
    const { files, packages } = closure('client/index.ts', false);
    assert.deepEqual(files.filter((file) => !file.startsWith('client/')), ['api/error-codes.ts', 'api/routes.ts', 'protocol/runtime/headers.ts']);
    assert.deepEqual(packages.filter((name) => !name.startsWith('node:')), []);
  });

  it('api/ imports nothing but itself, protocol/ and zod', () => {
    for (const entry of filesOf('api/')) {
      const { files, packages } = closure(entry, true);
      assert.deepEqual(files.filter((file) => !/^(api|protocol)\//.test(file)), [], entry);
      assert.deepEqual(packages.filter((name) => !/^zod(\/|$)/.test(name)), [], entry);
    }
  });

  it('no file of the service (server/) imports the demo, the Node client, a script, the SDK or the frames', () => {
    const files = readdirSync(new URL('server/', root), { recursive: true, encoding: 'utf8' }).filter((name) => name.endsWith('.ts'));
    assert.ok(files.length > 50, 'found the service');
    const offenders = files.flatMap((name) => {
      const file = new URL(`server/${name}`, root);
      // What the frames and the service's pages both show (the catalogues) is in i18n/, not iframe-app/.
      return [...readFileSync(file, 'utf8').matchAll(/from\s+'(\.[^']+)'/g)]
        .map((m) => relative(new URL(m[1]!, file)))
        .filter((target) => /^(demo|client|scripts|components|iframe-app)\//.test(target))
        .map((target) => `server/${name} → ${target}`);
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

  it('no import cycle in the service, the API table, the Node client and what they import (types included)', () => {
    const entries = ['server/', 'api/', 'client/'].flatMap((folder) =>
      readdirSync(new URL(folder, root), { recursive: true, encoding: 'utf8' })
        .filter((name) => name.endsWith('.ts'))
        .map((name) => `${folder}${name}`),
    );
    assert.ok(entries.length > 80, 'found the files');
    assert.deepEqual(importCycles(entries), []);
  });
});

/** The import graph reachable from `entries` (relative imports, types included), as file → files it imports. */
function importGraph(entries: string[]): Map<string, string[]> {
  const graph = new Map<string, string[]>();
  const visit = (file: string) => {
    if (graph.has(file)) return;
    const url = new URL(file, root);
    const targets = [...readFileSync(url, 'utf8').matchAll(/^\s*(?:import|export)\s+(?:type\s+)?[^'";]*?from\s+'(\.[^']+)'|^\s*import\s+'(\.[^']+)'/gm)].map((m) =>
      relative(new URL((m[1] ?? m[2])!, url)),
    );
    graph.set(file, targets);
    for (const target of targets) visit(target);
  };
  for (const entry of entries) visit(entry);
  return graph;
}

/**
 * Every import cycle among the files reachable from `entries`: the strongly connected components of
 * more than one file (Tarjan), each as its files in order, so a failure names the cycle to break.
 */
export function importCycles(entries: string[]): string[][] {
  const graph = importGraph(entries);
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const cycles: string[][] = [];
  const connect = (file: string) => {
    index.set(file, index.size);
    low.set(file, index.get(file)!);
    stack.push(file);
    onStack.add(file);
    for (const next of graph.get(file) ?? []) {
      if (!index.has(next)) {
        connect(next);
        low.set(file, Math.min(low.get(file)!, low.get(next)!));
      } else if (onStack.has(next)) low.set(file, Math.min(low.get(file)!, index.get(next)!));
    }
    if (low.get(file) !== index.get(file)) return;
    const component: string[] = [];
    let member: string;
    do {
      member = stack.pop()!;
      onStack.delete(member);
      component.push(member);
    } while (member !== file);
    if (component.length > 1) cycles.push(component.sort());
  };
  for (const file of graph.keys()) if (!index.has(file)) connect(file);
  return cycles;
}
