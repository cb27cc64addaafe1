import type { EventEmitter } from 'node:events';
import autocannon from 'autocannon';
import { apiHeaders } from './auth';

/** Throughput and latency of one measured point. */
export interface Point {
  /** Completed operations per second over the measured window (after the warm-up). */
  rate: number;
  p50: number;
  p99: number;
  count: number;
  /** Requests that failed or answered an unexpected status (must be 0 for a valid point). */
  failures: number;
}

export interface Durations {
  warmupMs: number;
  measureMs: number;
}

export function percentile(sorted: ArrayLike<number>, p: number): number {
  if (sorted.length === 0) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))];
}

/**
 * Closed loop: `concurrency` workers each run `op` back to back, first for the warm-up (not
 * recorded), then for the measured window. Latency is per operation, in milliseconds.
 */
export async function closedLoop(concurrency: number, d: Durations, op: (worker: number) => Promise<unknown>): Promise<Point> {
  const run = async (ms: number, record: boolean) => {
    const latencies: number[] = [];
    let failures = 0;
    const started = performance.now();
    const deadline = started + ms;
    await Promise.all(
      Array.from({ length: concurrency }, async (_, w) => {
        while (performance.now() < deadline) {
          const t = performance.now();
          try {
            await op(w);
            if (record) latencies.push(performance.now() - t);
          } catch (error) {
            failures++;
            if (failures === 1 && record) console.error(`  (first failure: ${(error as Error).message})`);
          }
        }
      }),
    );
    return { latencies, failures, elapsed: performance.now() - started };
  };
  if (d.warmupMs > 0) await run(d.warmupMs, false);
  const { latencies, failures, elapsed } = await run(d.measureMs, true);
  return summarize(latencies, elapsed, failures);
}

export function summarize(latencies: number[], elapsedMs: number, failures = 0): Point {
  const sorted = Float64Array.from(latencies).sort();
  return { rate: (latencies.length * 1000) / elapsedMs, p50: percentile(sorted, 50), p99: percentile(sorted, 99), count: latencies.length, failures };
}

export interface HttpLoad {
  url: string;
  connections: number;
  method: 'GET' | 'PUT';
  /** Path of each request (called once per request). */
  path: () => string;
  body?: string;
  expectStatus: number;
  /** Called between the warm-up and the measured run. */
  onMeasureStart?: () => void;
}

/**
 * HTTP load with autocannon (closed loop, one request in flight per connection): a warm-up
 * run, then the measured run. Latencies come from autocannon's per-response event (float
 * milliseconds; its own histogram rounds to whole milliseconds).
 */
export async function httpLoad(load: HttpLoad, d: Durations): Promise<Point> {
  const once = async (ms: number) => {
    let unexpected = 0;
    const latencies: number[] = [];
    const tracker = autocannon({
      url: load.url,
      connections: load.connections,
      duration: ms / 1000,
      headers: apiHeaders(load.body ? { 'content-type': 'application/json' } : {}),
      requests: [
        {
          method: load.method,
          body: load.body,
          setupRequest: (request: any) => ({ ...request, path: load.path() }),
        } as any,
      ],
    }) as unknown as EventEmitter & Promise<autocannon.Result>;
    tracker.on('response', (_client: unknown, status: number, _bytes: number, time: number) => {
      if (status === load.expectStatus) latencies.push(time);
      else unexpected++;
    });
    const result = await tracker;
    return { result, latencies, unexpected };
  };
  if (d.warmupMs > 0) await once(d.warmupMs);
  load.onMeasureStart?.();
  const { result, latencies, unexpected } = await once(d.measureMs);
  return summarize(latencies, result.duration * 1000, unexpected + result.errors + result.timeouts);
}
