// The server test files worth running again on PostgreSQL (`npm run test:server:postgres`): those
// that start a service or a database, through the helpers that choose the engine. A file that imports
// none of them (a parser, the docs' freshness, the layering rules, the embedded store's own files)
// tests nothing of the engine, and its run on the embedded leg says all it can.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

const STARTS_A_SERVICE = /from '(\.\.\/helpers\/service(-process)?|\.\.\/\.\.\/testkit\/(processes|postgres|stack))\.ts'/;
const folder = process.argv[2] ?? 'test/server';
const files = readdirSync(folder)
  .filter((name) => name.endsWith('.test.ts'))
  .sort()
  .map((name) => join(folder, name))
  .filter((file) => STARTS_A_SERVICE.test(readFileSync(file, 'utf8')));
process.stdout.write(`${files.join('\n')}\n`);
