import autocannon, { type Request, type Result } from 'autocannon';

export interface LoadSpec {
  url: string;
  method: 'GET' | 'POST' | 'PUT';
  path: string;
  headers?: Record<string, string>;
  /** A new body per request (unique usernames for creates). */
  body?: () => string;
  /** A new path per request (updates of random rows); default `path`. */
  pathFor?: () => string;
  connections: number;
  /** Seconds; or `amount` requests in total. */
  duration?: number;
  amount?: number;
  /** Where every response time goes; given, the percentiles are of all it holds (rounds of one measurement). */
  latencies?: number[];
}

export interface LoadResult {
  /** Mean of autocannon's per-second request counts (2xx and not). */
  reqPerSec: number;
  /** Completed requests / wall time, a cross-check of the mean. */
  reqPerSecOverall: number;
  /** Exact percentiles of every response time, in ms (autocannon's own histogram keeps whole ms). */
  latency: { p50: number; p90: number; p99: number; max: number; mean: number };
  autocannonP99: number;
  requests: number;
  ok: number;
  errors: number;
  timeouts: number;
  non2xx: number;
  statusCodes: Record<string, number>;
  seconds: number;
}

const percentile = (sorted: Float64Array, p: number) =>
  sorted.length === 0 ? NaN : sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];

const round = (n: number, digits = 2) => Math.round(n * 10 ** digits) / 10 ** digits;

/** Runs autocannon in this process (the server is always another process) and summarises it. */
export function load(spec: LoadSpec): Promise<LoadResult> {
  const headers = { ...spec.headers, ...(spec.body ? { 'content-type': 'application/json' } : {}) };
  const request: Request = { method: spec.method, path: spec.path, headers };
  const makeBody = spec.body;
  const makePath = spec.pathFor;
  if (makeBody || makePath) request.setupRequest = (req) => ({ ...req, ...(makeBody ? { body: makeBody() } : {}), ...(makePath ? { path: makePath() } : {}) });
  const latencies: number[] = spec.latencies ?? [];
  const started = performance.now();
  return new Promise((resolve, reject) => {
    const instance = autocannon(
      {
        url: spec.url,
        connections: spec.connections,
        ...(spec.amount !== undefined ? { amount: spec.amount } : { duration: spec.duration ?? 10 }),
        // Seconds before autocannon gives up on a response: json-server's serial creates queue for seconds.
        timeout: 30,
        requests: [request],
      },
      (error, result: Result) => {
        if (error) return reject(error);
        const seconds = (performance.now() - started) / 1000;
        const sorted = Float64Array.from(latencies).sort();
        const statusCodes = Object.fromEntries(Object.entries(result.statusCodeStats ?? {}).map(([code, { count }]) => [code, count]));
        const completed = Object.values(statusCodes).reduce((a, b) => a + b, 0);
        resolve({
          reqPerSec: round(result.requests.average, 1),
          reqPerSecOverall: round(completed / seconds, 1),
          latency: {
            p50: round(percentile(sorted, 50), 3),
            p90: round(percentile(sorted, 90), 3),
            p99: round(percentile(sorted, 99), 3),
            max: round(sorted.at(-1) ?? NaN, 3),
            mean: round(latencies.reduce((a, b) => a + b, 0) / (latencies.length || 1), 3),
          },
          autocannonP99: result.latency.p99,
          requests: completed,
          ok: result['2xx'],
          errors: result.errors,
          timeouts: result.timeouts,
          non2xx: result.non2xx,
          statusCodes,
          seconds: round(seconds, 2),
        });
      },
    );
    instance.on('response', (_client: unknown, _status: number, _bytes: number, responseTime: number) => {
      latencies.push(responseTime);
    });
  });
}

/**
 * Two measurements side by side: `rounds` alternating slices of `duration / rounds` seconds each, so
 * both see the same machine (a shared machine's load moves within seconds). Each result is its slices
 * together: requests and seconds summed, req/s their mean, percentiles over every response.
 */
export async function loadSideBySide(a: LoadSpec, b: LoadSpec, rounds: number): Promise<[LoadResult, LoadResult]> {
  const slices: [LoadResult[], LoadResult[]] = [[], []];
  const latencies: [number[], number[]] = [[], []];
  for (let i = 0; i < rounds; i++) {
    for (const [k, spec] of [a, b].entries()) slices[k].push(await load({ ...spec, duration: (spec.duration ?? 10) / rounds, latencies: latencies[k] }));
  }
  const merge = (results: LoadResult[]): LoadResult => {
    const last = results.at(-1)!;
    const sum = (pick: (r: LoadResult) => number) => results.reduce((n, r) => n + pick(r), 0);
    const statusCodes: Record<string, number> = {};
    for (const r of results) for (const [code, n] of Object.entries(r.statusCodes)) statusCodes[code] = (statusCodes[code] ?? 0) + n;
    const seconds = sum((r) => r.seconds);
    return {
      ...last,
      reqPerSec: round(sum((r) => r.reqPerSec) / results.length, 1),
      reqPerSecOverall: round(sum((r) => r.requests) / seconds, 1),
      autocannonP99: Math.max(...results.map((r) => r.autocannonP99)),
      requests: sum((r) => r.requests),
      ok: sum((r) => r.ok),
      errors: sum((r) => r.errors),
      timeouts: sum((r) => r.timeouts),
      non2xx: sum((r) => r.non2xx),
      statusCodes,
      seconds: round(seconds, 2),
    };
  };
  return [merge(slices[0]), merge(slices[1])];
}
