import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';

/** The parts of a V8 .cpuprofile this summary reads. */
interface CpuProfile {
  nodes: { id: number; callFrame: { functionName: string; url: string; lineNumber: number }; children?: number[] }[];
  samples: number[];
  timeDeltas: number[];
  startTime: number;
  endTime: number;
}

export interface ProfileSummary {
  file: string;
  /** Milliseconds sampled (wall time of the profile). */
  totalMs: number;
  /** Milliseconds the thread was busy (not idle). */
  busyMs: number;
  /** Busy time by the innermost project area on the stack: a store commit includes its JSON work, etc. */
  byArea: { area: string; ms: number; share: number }[];
  /** Self time by leaf category (where the CPU actually was). */
  byLeaf: { category: string; ms: number; share: number }[];
  /** The heaviest functions by self time. */
  topSelf: { fn: string; ms: number; share: number }[];
  /** Inclusive time of chosen project functions (a function counted once per sample). */
  inclusive: { fn: string; ms: number; share: number }[];
}

/** The area of the service a frame belongs to, or undefined for runtime and dependency frames. */
function projectArea(url: string, root: string): string | undefined {
  if (!url.includes(root)) return undefined;
  const path = relative(root, url.replace(/^file:\/\//, ''));
  if (path.startsWith('node_modules')) return undefined;
  if (path.startsWith('server/store/')) return 'store (server/store/*)';
  if (path === 'server/http/idempotency.ts' || path.startsWith('server/idempotency/')) return 'idempotency (server/idempotency/*, server/http/idempotency.ts)';
  if (path === 'server/http/request-log.ts' || path === 'server/logger.ts') return 'logging';
  if (path === 'server/http/operation.ts') return 'validation + routing (server/http/operation.ts, zod)';
  if (path.startsWith('server/payments/')) return `payments (${path})`;
  if (path.startsWith('server/http/')) return `http middleware (${path})`;
  return path;
}

function leafCategory(url: string, fn: string): string {
  if (fn === '(idle)') return '(idle)';
  if (fn === '(garbage collector)') return 'GC';
  if (fn === '(program)') return '(program: V8/native outside JS)';
  if (url.includes('node_modules/zod')) return 'zod';
  if (url.includes('node_modules/koa') || url.includes('node_modules/@koa') || url.includes('node_modules/koa-compose')) return 'koa, router, body parser';
  if (url.includes('node_modules/')) return `other dependency (${url.split('node_modules/')[1].split('/')[0]})`;
  if (url.includes('/server/store/')) return 'store (own code)';
  if (url.includes('/server/')) return 'service (own code)';
  if (url.startsWith('node:internal/crypto') || /^(createHash|createHmac|digest|update|randomBytes|randomFillSync)$/.test(fn)) return 'node crypto';
  if (url.startsWith('node:internal/fs') || url.startsWith('node:fs')) return 'node fs';
  if (url.startsWith('node:')) return `node core (${url.slice(5).split('/').slice(0, 2).join('/')})`;
  if (url === '' && fn) return `V8 builtin (${fn})`;
  return url || '(unknown)';
}

/** Summarises the newest .cpuprofile in `dir`. `root`: the repository, to tell project frames apart. */
export function summariseProfile(dir: string, root: string, inclusiveOf: string[] = []): ProfileSummary {
  // One profile per thread (tsx's module loader runs in a worker): the service's is the biggest.
  const file = readdirSync(dir)
    .filter((f) => f.endsWith('.cpuprofile'))
    .map((f) => join(dir, f))
    .sort((a, b) => statSync(a).size - statSync(b).size)
    .at(-1);
  if (!file) throw new Error(`no .cpuprofile in ${dir}`);
  const profile = JSON.parse(readFileSync(file, 'utf8')) as CpuProfile;
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const parent = new Map<number, number>();
  for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);

  const area = new Map<string, number>();
  const leaf = new Map<string, number>();
  const self = new Map<string, number>();
  const incl = new Map<string, number>();
  let total = 0;
  let idle = 0;
  for (let i = 0; i < profile.samples.length; i++) {
    const ms = (profile.timeDeltas[i] ?? 0) / 1000;
    total += ms;
    const node = byId.get(profile.samples[i])!;
    const { functionName: fn, url, lineNumber } = node.callFrame;
    if (fn === '(idle)') {
      idle += ms;
      continue;
    }
    const cat = leafCategory(url, fn);
    leaf.set(cat, (leaf.get(cat) ?? 0) + ms);
    const name = `${fn || '(anonymous)'} ${url ? `${url.replace(/^file:\/\//, '').replace(root + '/', '')}:${lineNumber + 1}` : ''}`.trim();
    self.set(name, (self.get(name) ?? 0) + ms);
    // Walk up to the innermost project frame: its area gets the sample (with its native callees).
    let owner: string | undefined;
    const counted = new Set<string>();
    for (let id: number | undefined = node.id; id !== undefined; id = parent.get(id)) {
      const frame = byId.get(id)!.callFrame;
      owner ??= projectArea(frame.url, root);
      for (const wanted of inclusiveOf) {
        if (!counted.has(wanted) && `${frame.functionName}` === wanted.split('@')[0] && frame.url.includes(wanted.split('@')[1] ?? '')) {
          counted.add(wanted);
          incl.set(wanted, (incl.get(wanted) ?? 0) + ms);
        }
      }
    }
    const key = owner ?? (fn === '(garbage collector)' ? 'GC' : fn === '(program)' ? '(program)' : 'runtime, node core and dependencies outside any project frame (HTTP parsing, sockets, koa)');
    area.set(key, (area.get(key) ?? 0) + ms);
  }
  const busy = total - idle;
  const rows = <K extends string>(m: Map<string, number>, k: K, limit = 20) =>
    [...m.entries()]
      .sort((a, b) => b[1] - a[1])
      .slice(0, limit)
      .map(([name, ms]) => ({ [k]: name, ms: Math.round(ms), share: Math.round((ms / busy) * 1000) / 10 }) as { ms: number; share: number } & Record<K, string>);
  return {
    file,
    totalMs: Math.round(total),
    busyMs: Math.round(busy),
    byArea: rows(area, 'area', 14),
    byLeaf: rows(leaf, 'category', 16),
    topSelf: rows(self, 'fn', 25),
    inclusive: inclusiveOf.map((fn) => ({ fn, ms: Math.round(incl.get(fn) ?? 0), share: Math.round(((incl.get(fn) ?? 0) / busy) * 1000) / 10 })),
  };
}
