/**
 * BENCH_ONLY=put: item 1 alone, for development. The API on a scratch database seeded with
 * BENCH_PUT_SEED charges (default 20,000; item 1 runs on 100,000 in the full run), warmed by
 * BENCH_PUT_WARMUP_SECONDS (default 5; 0: cold) of untimed PUTs on each process, then at each
 * of BENCH_PUT_CLIENTS (default 1,64) raw INSERT, bare Fastify and the API back to back, with
 * the CPU each process spent per PUT (Linux /proc) and the API's instructions and cycles per PUT
 * (`perf stat`, if present). Prints the rows; docs/benchmarks.md is left as it is.
 */
import { spawn } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import type { Pool } from 'pg';
import { putBody, runTag, seedEvents } from './fixtures';
import { capture, putLoad, warmPutPaths } from './http';
import type { Durations } from './load';
import { startApi, startBareFastify, type Stoppable } from './processes';
import { fmtPoint, fmtRate } from './report';
import { replayCobV } from './replay-cobv';
import { rawInsertCeiling, seedEventLog, waitForConnectionSlots } from './storage';

/** [utime, stime] of a process in seconds (USER_HZ 100), zeros once it is gone. */
export function cpuTimes(pid: number): [number, number] {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
    return [Number(fields[11]) / 100, Number(fields[12]) / 100];
  } catch {
    return [0, 0];
  }
}
/** utime + stime of a process, in seconds (0 if it is gone). */
export const cpuSeconds = (pid: number) => {
  const [user, system] = cpuTimes(pid);
  return user + system;
};
/** utime + stime of every PostgreSQL process now (server, backends, WAL writer), by pid. */
function postgresTimes(): Map<number, number> {
  const times = new Map<number, number>();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      if (readFileSync(`/proc/${entry}/comm`, 'utf8').trim() === 'postgres') times.set(Number(entry), cpuSeconds(Number(entry)));
    } catch {
      // gone meanwhile
    }
  }
  return times;
}
/** CPU seconds PostgreSQL spent between two readings (a backend started meanwhile: all of its time). */
const postgresSpent = (before: Map<number, number>, after: Map<number, number>) => [...after].reduce((sum, [pid, t]) => sum + t - (before.get(pid) ?? 0), 0);
/**
 * Hardware counters of a process while `run` runs (`perf stat`, where it exists and counters are
 * readable): instructions are far steadier than CPU time on a shared machine, for before/after.
 */
async function counted<T>(pid: number, run: () => Promise<T>): Promise<{ result: T; instructions?: number; cycles?: number }> {
  const perf = spawn('perf', ['stat', '-x', ',', '-e', 'instructions,cycles', '-p', String(pid)], { stdio: ['ignore', 'ignore', 'pipe'] });
  let out = '';
  perf.stderr.on('data', (c: Buffer) => (out += c.toString()));
  const exited = new Promise<void>((resolve) => perf.once('close', () => resolve()).once('error', () => resolve()));
  await new Promise((r) => setTimeout(r, 200)); // perf attaches
  const result = await run();
  perf.kill('SIGINT');
  await exited;
  const value = (name: string) => Number(out.split('\n').find((l) => l.split(',')[2]?.startsWith(name))?.split(',')[0]) || undefined;
  return { result, instructions: value('instructions'), cycles: value('cycles') };
}

export async function putOnly(url: string, db: Pool, children: Stoppable[], http: Durations, storage: Durations, log: (m: string) => void): Promise<void> {
  const seedCount = Number(process.env.BENCH_PUT_SEED ?? 20_000);
  const clients = (process.env.BENCH_PUT_CLIENTS ?? '1,64').split(',').map(Number);
  const seed = seedEvents(seedCount, Date.now(), 365, 'localhost:8080');
  await seedEventLog(url, seed.events);
  await replayCobV(url);
  const api = await startApi(url);
  children.push(api);
  const putResponse = await capture(api.url, 'PUT', `/v2/cobv/${`probe${runTag()}`.padEnd(30, '0')}`, JSON.stringify(putBody()));
  // Start-up work (catch-up of the read models over the seeded events) must not land in a window.
  for (let cpu = cpuSeconds(api.proc.pid!), quiet = 0; quiet < 2; ) {
    await new Promise((r) => setTimeout(r, 1000));
    const now = cpuSeconds(api.proc.pid!);
    quiet = now - cpu < 0.05 ? quiet + 1 : 0;
    cpu = now;
  }
  const bare = await startBareFastify(putResponse, '{}');
  children.push(bare);
  const tag = runTag();
  // As in the full run (bench.ts): steady states compared, not a process's first requests.
  const warmupMs = Number(process.env.BENCH_PUT_WARMUP_SECONDS ?? 5) * 1000;
  if (warmupMs > 0) {
    log(`untimed PUTs at 16 clients, ${warmupMs / 1000} s on the API, then on bare Fastify`);
    await warmPutPaths([api.url, bare.url], `w16x${tag}`, warmupMs);
  }
  for (const [i, c] of clients.entries()) {
    log(`PUT /v2/cobv/{txid}, ${c} client(s): raw INSERT, bare Fastify, API`);
    await waitForConnectionSlots(db, c + 2);
    const raw = await rawInsertCeiling(url, c, JSON.stringify(putBody()), storage);
    const bareCounted = await counted(bare.proc.pid!, () => putLoad(bare.url, c, `b${c}x${tag}${i}`, http));
    const bareput = bareCounted.result;
    const before = { api: cpuTimes(api.proc.pid!), bench: cpuSeconds(process.pid), pg: postgresTimes(), at: performance.now() };
    const { result: put, instructions, cycles } = await counted(api.proc.pid!, () => putLoad(api.url, c, `p${c}x${tag}${i}`, http));
    const after = { api: cpuTimes(api.proc.pid!), bench: cpuSeconds(process.pid), pg: postgresTimes(), at: performance.now() };
    // Every PUT of the phase, warm-up included (the counters and CPU times cover both): its rows.
    const made = Number((await db.query(`SELECT count(*) AS n FROM rm_cobv WHERE id LIKE $1`, [`%/p${c}x${tag}${i}%`])).rows[0].n);
    const bareMade = bareput.count * (1 + http.warmupMs / http.measureMs); // bare Fastify keeps no rows: estimated
    const ms = (seconds: number) => `${((seconds * 1000) / made).toFixed(3)} ms`;
    const millions = (n: number | undefined, of: number) => (n === undefined ? 'n/a' : `${(n / of / 1e6).toFixed(3)} M`);
    console.log(`${c} client(s): API ${fmtPoint(put, 'req/s')} · raw INSERT ${fmtRate(raw.rate, 'tx/s')} (${(put.rate / raw.rate).toFixed(3)}) · bare Fastify ${fmtRate(bareput.rate, 'req/s')} (${(put.rate / bareput.rate).toFixed(3)})`);
    console.log(`  per PUT over ${made} PUTs (warm-up included): API user ${ms(after.api[0] - before.api[0])}, system ${ms(after.api[1] - before.api[1])}, bench ${ms(after.bench - before.bench)}, postgres ${ms(postgresSpent(before.pg, after.pg))}; CPUs busy ${((after.api[0] + after.api[1] - before.api[0] - before.api[1] + after.bench - before.bench + postgresSpent(before.pg, after.pg)) / ((after.at - before.at) / 1000)).toFixed(2)} of 2`);
    console.log(`  instructions / cycles per PUT: API ${millions(instructions, made)} / ${millions(cycles, made)}; bare Fastify (estimated count) ${millions(bareCounted.instructions, bareMade)} / ${millions(bareCounted.cycles, bareMade)}`);
  }
  log(`API peak RSS ${api.peakRssMiB()?.toFixed(0)} MiB; BENCH_ONLY: docs/benchmarks.md not rewritten`);
}
