/**
 * `node tools/launch.js test/bench/replay-only.js`: item 2's read side alone (seed 100,000
 * charges, raw scan, readAll, replay, the bulk-load ceiling), for working on replay without the
 * whole bench. Prints the figures; writes nothing.
 */
import { Pool } from 'pg';
import { seedEvents } from './fixtures';
import { readBench, seedEventLog } from './storage';

async function main(): Promise<void> {
  const server = (process.env.BENCH_PG_URL ?? 'postgres://postgres@127.0.0.1:5432').replace(/\/$/, '');
  const admin = new Pool({ connectionString: `${server}/postgres`, max: 1 });
  const name = `bench_replay_${Date.now()}`;
  await admin.query(`CREATE DATABASE ${name}`);
  try {
    const url = `${server}/${name}`;
    await seedEventLog(url, seedEvents(Number(process.env.BENCH_SEED ?? 100_000), Date.now(), 365, 'localhost:8080').events);
    const r = await readBench(url);
    console.log(JSON.stringify({ ...r, replayOverBulk: r.replay / r.bulkLoad, replayOverScan: r.replay / r.rawScan }, null, 2));
  } finally {
    await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    await admin.end();
  }
}

void main().catch((error) => {
  console.error(error);
  process.exit(1);
});
