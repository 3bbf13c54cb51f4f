/**
 * Where the SDK's bytes are: each source module's share of every chunk of the SDK build
 * (dist/sdk/cpe.js and its lazy chunks), minified, from the build's source map.
 *
 *   node --import tsx bench/sdk/modules.ts [--top 40]
 *
 * Builds the SDK in memory with vite.config.ts's settings (its plugins, which build the frames and
 * write files, left out: so is the terser pass, scripts/vite-terser.ts, which makes the built file
 * some 60 B gz smaller than the total here) and a source map, then gives each minified byte to the source its mapping
 * names; bytes with no mapping (the chunk's glue) are "(unmapped)". Per module it prints the
 * minified bytes and "gz if gone": how much smaller the chunk's gzip -9 is with that module's bytes
 * taken out (a module's own gzip size would count what it shares with the rest of the chunk).
 * Nothing is written to dist/.
 */
import { relative, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { TraceMap, eachMapping } from '@jridgewell/trace-mapping';
import { build, type InlineConfig } from 'vite';
import sdkConfig from '../../vite.config.ts';
import { gzipSize } from './sizes.ts';

const { values: flags } = parseArgs({ options: { top: { type: 'string' } } });
const top = Number(flags.top ?? 40);

interface Chunk {
  type: string;
  fileName: string;
  code: string;
  map?: { toString(): string } | null;
}

const config = sdkConfig as InlineConfig;
const output = (await build({
  ...config,
  configFile: false,
  logLevel: 'warn',
  plugins: [],
  build: { ...config.build, write: false, sourcemap: true, emptyOutDir: false, reportCompressedSize: false },
})) as { output: Chunk[] }[];

const root = config.root!;
// The map's sources are relative to the chunk's folder.
const outDir = config.build!.outDir!;
for (const chunk of output[0]!.output.filter((item) => item.type === 'chunk')) {
  const code = chunk.code;
  const lineStarts = [0];
  for (let i = 0; i < code.length; i++) if (code[i] === '\n') lineStarts.push(i + 1);
  // Each mapping starts a segment that runs to the next mapping: that segment's bytes go to its source.
  const segments: Array<{ at: number; source: string }> = [];
  eachMapping(new TraceMap(chunk.map!.toString()), (m) => {
    segments.push({ at: lineStarts[m.generatedLine - 1]! + m.generatedColumn, source: m.source ? relative(root, resolve(outDir, m.source)) : '(unmapped)' });
  });
  segments.sort((a, b) => a.at - b.at);
  const owner = new Array<string>(code.length).fill('(unmapped)');
  for (const [i, segment] of segments.entries()) owner.fill(segment.source, segment.at, segments[i + 1]?.at ?? code.length);

  const bytes = new Map<string, number>();
  for (const source of owner) bytes.set(source, (bytes.get(source) ?? 0) + 1);
  const whole = gzipSize(code);
  const rows = [...bytes.entries()]
    .map(([source, n]) => ({ source: source.replace(/^.*node_modules\//, 'node_modules/'), n, gzGone: whole - gzipSize(owner.map((o, i) => (o === source ? '' : code[i])).join('')) }))
    .sort((a, b) => b.n - a.n);

  console.log(`\n${chunk.fileName}: ${code.length} B minified, ${whole} B gz, ${rows.length} sources`);
  console.log(`${'minified'.padStart(9)} ${'share'.padStart(6)} ${'gz if gone'.padStart(10)}  source`);
  for (const row of rows.slice(0, top)) {
    console.log(`${String(row.n).padStart(9)} ${((100 * row.n) / code.length).toFixed(1).padStart(5)}% ${String(row.gzGone).padStart(10)}  ${row.source}`);
  }
  if (rows.length > top) console.log(`  … ${rows.length - top} more, ${rows.slice(top).reduce((s, r) => s + r.n, 0)} B`);
}
