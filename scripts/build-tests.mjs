// `node scripts/build-tests.mjs`: compiles the Node test files, the service's entry point
// (scripts/start.ts) and the CLI commands (server/cli/) to plain JavaScript in .tmp/node-tests/, so
// that `npm test` runs them with bare Node instead of through tsx. tsx compiles and resolves every
// module in a loader thread on each start: the service cost about 1.2 s of processor to start that
// way and 0.6 s compiled, and `npm test` starts hundreds of such processes on two cores.
// scripts/test.mjs builds this beside the type check and the build, and sets CPE_TEST_COMPILED to
// the folder; without it (a file run alone with `node --import tsx --test FILE`) nothing here is used.
//
// One bundle per test file, modules shared between them split into chunks; packages stay imports of
// node_modules (found from .tmp/ as from the sources). Each module keeps its own address: its
// `import.meta.url`, `dirname` and `filename` are those of its source file, so every path a module
// builds from them (the repository's root, a fixture, dist/) is what it was, and a test that prints
// its file names the source. A module loaded by address (`import(new URL('x.ts', import.meta.url).href)`)
// is bundled like any other dynamic import.
import { readdirSync, readFileSync, rmSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
export const OUT = join(root, '.tmp', 'node-tests');
/** The folders whose tests run in Node (the component tests run in Chromium through web-test-runner). */
const SUITES = ['test/server', 'test/unit', 'test/model', 'test/e2e', 'test/security', 'test/package', 'test/recipes'];

const testFiles = (folder) =>
  readdirSync(join(root, folder), { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile() && entry.name.endsWith('.test.ts'))
    .map((entry) => relative(root, join(entry.parentPath, entry.name)));

/** Its own address for each module, in place of the bundle's. */
const ownAddress = {
  name: 'own-address',
  setup(b) {
    b.onLoad({ filter: /\.(ts|mjs|js)$/ }, ({ path }) => {
      const url = pathToFileURL(path).href;
      const contents = readFileSync(path, 'utf8')
        .replace(/import\(new URL\(('[^']+'), import\.meta\.url\)\.href\)/g, 'import($1)')
        .replace(/\bimport\.meta\.(url|dirname|filename)\b/g, (_, key) => JSON.stringify(key === 'url' ? url : key === 'dirname' ? dirname(path) : path));
      return { contents, loader: path.endsWith('.ts') ? 'ts' : 'js' };
    });
  },
};

/** A CLI command's package.json script; its file without `.ts` (testkit's npmRun runs the compiled one). */
export const CLI_SCRIPT = /^node --import tsx (server\/cli\/[\w-]+)\.ts$/;
const cliCommands = () =>
  Object.values(JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')).scripts).flatMap((line) => {
    const file = line.match(CLI_SCRIPT)?.[1];
    return file ? [`${file}.ts`] : [];
  });

/** The service, the CLI commands and every Node test. */
const ENTRIES = () => ['scripts/start.ts', ...cliCommands(), ...SUITES.flatMap(testFiles)];

/** Compiles `entryPoints` (paths from the root; default: ENTRIES) into `out`; how many. */
export async function buildTests({ out = OUT, entryPoints = ENTRIES() } = {}) {
  rmSync(out, { recursive: true, force: true });
  // Loaded here: testkit imports CLI_SCRIPT in every test process, which never builds.
  const { build } = await import('esbuild');
  await build({
    absWorkingDir: root,
    entryPoints,
    outdir: out,
    outbase: root,
    bundle: true,
    splitting: true,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    packages: 'external',
    sourcemap: 'linked',
    chunkNames: 'chunks/[name]-[hash]',
    logLevel: 'warning',
    plugins: [ownAddress],
  });
  return entryPoints.length;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const started = Date.now();
  const count = await buildTests();
  process.stdout.write(`${count} entry points compiled to ${relative(root, OUT)}/ in ${Date.now() - started} ms\n`);
}
