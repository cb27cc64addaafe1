/**
 * `npm run bench -- --profile`: the API under `node --cpu-prof`, PUT /v2/cobv/{txid} at 64
 * clients (BENCH_PROFILE_CLIENTS) (warm-up, then BENCH_PROFILE_SECONDS measured, default 10), stopped gracefully so
 * the profile is written; prints where the time went during the measured window only, and the
 * CPU each process spent per request (Linux /proc).
 */
import { mkdirSync, readdirSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Pool } from 'pg';
import { renderSummary, summarizeFile } from './cpuprofile-summary';
import { runTag } from './fixtures';
import { getLoad, putLoad } from './http';
import { startApi, type Stoppable } from './processes';
import { cpuSeconds } from './put-only';
import { fmtPoint } from './report';

const nowUs = () => Number(process.hrtime.bigint() / 1000n);

export async function runProfile(url: string, children: Stoppable[], log: (m: string) => void): Promise<void> {
  const dir = path.join(os.tmpdir(), `pix-bench-cpuprof-${Date.now()}`);
  mkdirSync(dir, { recursive: true });
  const interval = Number(process.env.BENCH_PROFILE_INTERVAL_US ?? 500);
  const clients = Number(process.env.BENCH_PROFILE_CLIENTS ?? 64);
  log(`starting the API under --cpu-prof (every ${interval} µs) into ${dir}`);
  const api = await startApi(url, ['--cpu-prof', `--cpu-prof-dir=${dir}`, `--cpu-prof-interval=${interval}`]);
  children.push(api);
  const tag = runTag();
  log(`PUT at ${clients} clients: warm-up`);
  await putLoad(api.url, clients, `w${tag}`, { warmupMs: 0, measureMs: 1000 * Number(process.env.BENCH_WARMUP_SECONDS ?? 3) });
  // The backends serving this database (the API's pool and listener, all open after the warm-up).
  const pool = new Pool({ connectionString: url, max: 1 });
  // BENCH_PROFILE_ROUTE=get profiles GET /v2/cobv/{txid} over the charges the warm-up created.
  const route = process.env.BENCH_PROFILE_ROUTE === 'get' ? 'get' : 'put';
  const txids = route === 'get' ? (await pool.query<{ txid: string }>(`SELECT doc->>'txid' AS txid FROM rm_cobv LIMIT 5000`)).rows.map((r) => r.txid) : [];
  const backends = (await pool.query<{ pid: number }>(`SELECT pid FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid()`)).rows.map((r) => r.pid);
  await pool.end();
  const pids = { api: api.proc.pid!, bench: process.pid };
  const cpuBefore = { api: cpuSeconds(pids.api), bench: cpuSeconds(pids.bench), pg: backends.reduce((s, p) => s + cpuSeconds(p), 0) };
  const from = nowUs();
  log(`${route.toUpperCase()} at ${clients} clients: profiled window`);
  const window = { warmupMs: 0, measureMs: 1000 * Number(process.env.BENCH_PROFILE_SECONDS ?? 10) };
  const point = route === 'get' ? await getLoad(api.url, clients, txids, window) : await putLoad(api.url, clients, `m${tag}`, window);
  const to = nowUs();
  const cpu = {
    api: cpuSeconds(pids.api) - cpuBefore.api,
    bench: cpuSeconds(pids.bench) - cpuBefore.bench,
    pg: backends.reduce((s, p) => s + cpuSeconds(p), 0) - cpuBefore.pg,
  };
  await api.stop();
  children.splice(children.indexOf(api), 1);
  const files = readdirSync(dir).filter((f) => f.endsWith('.cpuprofile'));
  if (files.length !== 1) throw new Error(`expected one .cpuprofile in ${dir}, found ${files.length}`);
  const file = path.join(dir, files[0]);
  const summary = summarizeFile(file, from, to);
  const wall = (to - from) / 1e6;
  const perRequest = (s: number) => `${((s * 1000) / point.count).toFixed(2)} ms/request (${((s / wall) * 100).toFixed(0)}% of a core)`;
  console.log(`${route.toUpperCase()} /v2/cobv/{txid}, ${clients} clients, under the profiler: ${fmtPoint(point, 'req/s')}`);
  console.log(`CPU in the window (${wall.toFixed(1)} s, ${os.cpus().length} cores): API ${perRequest(cpu.api)}; its ${backends.length} PostgreSQL backends ${perRequest(cpu.pg)}; load generator ${perRequest(cpu.bench)}`);
  console.log(`profile: ${file}\n`);
  console.log(renderSummary(summary, Number(process.env.BENCH_PROFILE_TOP ?? 25)));
}
