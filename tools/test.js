#!/usr/bin/env node
// `npm test`: provisions what the suite needs (PostgreSQL, Kafka), then lint (with Nx module boundaries), typecheck
// and every jest project. Ends with one plain summary line: "tests: N passed, N failed, N skipped".
'use strict';
const { spawnSync } = require('node:child_process');
const { existsSync, readFileSync, mkdirSync, rmSync } = require('node:fs');
const path = require('node:path');

const root = path.resolve(__dirname, '..');
/** A connection URL without its password, for the log. */
const withoutPassword = (url) => url.replace(/:[^:@/]+@/, ':***@');
const bin = (name) => path.join(root, 'node_modules', '.bin', name);
const env = { ...process.env, NX_DAEMON: 'false', NX_NO_CLOUD: 'true', FORCE_COLOR: process.env.FORCE_COLOR ?? '0' };

function step(title, command, args) {
  console.log(`\n=== ${title}`);
  const started = Date.now();
  const result = spawnSync(command, args, { cwd: root, env, stdio: 'inherit' });
  console.log(`=== ${title}: ${result.status === 0 ? 'ok' : 'FAILED'} (${((Date.now() - started) / 1000).toFixed(1)} s)`);
  return result.status === 0;
}

async function ensurePostgres() {
  const { Client } = require('pg');
  const url = env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
  const client = new Client({ connectionString: url, connectionTimeoutMillis: 3000 });
  try {
    await client.connect();
    const { rows } = await client.query('SHOW server_version');
    console.log(`PostgreSQL for tests: ${withoutPassword(url)} (server ${rows[0].server_version})`);
    env.TEST_DATABASE_URL = url;
    return async () => undefined;
  } catch (error) {
    console.log(`No PostgreSQL at ${url} (${error.message}); starting the embedded engine for the tests.`);
  } finally {
    await client.end().catch(() => undefined);
  }
  // Same engine as local mode, in a throw-away folder (built first: it is TypeScript).
  if (!step('build (for the embedded PostgreSQL launcher)', bin('tsc'), ['-p', 'tsconfig.build.json'])) process.exit(1);
  const { startEmbeddedPostgres } = require(path.join(root, 'dist/libs/event-store/src/postgres/embedded-postgres.js'));
  const dir = path.join(root, '.cache', 'test-pg');
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(path.dirname(dir), { recursive: true });
  const pg = await startEmbeddedPostgres({ dataDir: dir });
  env.TEST_DATABASE_URL = pg.url;
  console.log(`Embedded PostgreSQL for tests at ${withoutPassword(pg.url)}`);
  return pg.stop;
}

// Kafka for the integration tests: KAFKA_BROKERS if set, else a throw-away single-node broker
// from the Apache Kafka artifacts on Maven Central (cached in .cache/kafka), see tools/kafka.
async function ensureKafka() {
  if (env.KAFKA_BROKERS) {
    console.log(`Kafka for tests: ${env.KAFKA_BROKERS} (from KAFKA_BROKERS)`);
    return async () => undefined;
  }
  const docker = await startKafkaContainer().catch((error) => {
    console.log(`Kafka container not started (${error.message}); using the Maven Central broker.`);
    return undefined;
  });
  if (docker) return docker;
  const { startKafka } = require(path.join(root, 'tools', 'kafka', 'kafka.js'));
  const kafka = await startKafka({ log: (message) => console.log(message) });
  env.KAFKA_BROKERS = kafka.brokers;
  const t = kafka.timings;
  console.log(`Kafka for tests at ${kafka.brokers} (fetch ${(t.fetchMs / 1000).toFixed(1)} s, format ${(t.formatMs / 1000).toFixed(1)} s, start ${(t.startToReadyMs / 1000).toFixed(1)} s)`);
  return kafka.stop;
}

// Where a Docker engine exists, testcontainers runs the official apache/kafka image in KRaft mode
// on a fixed free host port (advertised as such). No Docker here: the Maven Central broker serves.
// NOT verified on this project's machines, which have no Docker engine.
async function startKafkaContainer() {
  const { GenericContainer, getContainerRuntimeClient } = require('testcontainers');
  if (env.KAFKA_CONTAINER === 'off') throw new Error('KAFKA_CONTAINER=off');
  await getContainerRuntimeClient();
  const port = await new Promise((resolve, reject) => {
    const s = require('node:net').createServer();
    s.on('error', reject).listen(0, '127.0.0.1', () => s.close(() => resolve(s.address().port)));
  });
  const container = await new GenericContainer(env.KAFKA_IMAGE ?? 'apache/kafka:3.9.1')
    .withExposedPorts({ container: 9092, host: port })
    .withEnvironment({
      KAFKA_NODE_ID: '1',
      KAFKA_PROCESS_ROLES: 'broker,controller',
      KAFKA_LISTENERS: 'PLAINTEXT://:9092,CONTROLLER://:9093',
      KAFKA_ADVERTISED_LISTENERS: `PLAINTEXT://127.0.0.1:${port}`,
      KAFKA_CONTROLLER_LISTENER_NAMES: 'CONTROLLER',
      KAFKA_LISTENER_SECURITY_PROTOCOL_MAP: 'CONTROLLER:PLAINTEXT,PLAINTEXT:PLAINTEXT',
      KAFKA_CONTROLLER_QUORUM_VOTERS: '1@localhost:9093',
      KAFKA_OFFSETS_TOPIC_REPLICATION_FACTOR: '1',
      KAFKA_TRANSACTION_STATE_LOG_REPLICATION_FACTOR: '1',
      KAFKA_TRANSACTION_STATE_LOG_MIN_ISR: '1',
      KAFKA_GROUP_INITIAL_REBALANCE_DELAY_MS: '0',
      KAFKA_AUTO_CREATE_TOPICS_ENABLE: 'false',
    })
    .start();
  env.KAFKA_BROKERS = `127.0.0.1:${port}`;
  console.log(`Kafka for tests in a container (testcontainers) at ${env.KAFKA_BROKERS}`);
  return () => container.stop();
}

// The /docs and /sandbox browser tests drive Debian's chromium through playwright-core (no browser download): install it
// on a fresh machine when we may (root), otherwise that test says what to install.
function ensureChromium() {
  if (existsSync('/usr/bin/chromium') || process.getuid?.() !== 0) return;
  for (const args of [['update'], ['install', '-y', '--no-install-recommends', 'chromium']])
    if (!step(`apt-get ${args.join(' ')} (chromium for the browser tests)`, 'apt-get', args)) return;
}

async function main() {
  ensureChromium();
  const stopPostgres = await ensurePostgres();
  const stopKafka = await ensureKafka();
  let ok = true;
  // The same command as `npm run lint`: computes the Nx project graph first, or the boundary rule skips itself.
  ok = step('lint (eslint + @nx/enforce-module-boundaries)', process.execPath, [path.join(root, 'tools', 'lint.js')]) && ok;
  ok = step('typecheck', bin('tsc'), ['-p', 'tsconfig.json', '--noEmit']) && ok;
  // Some tests run the compiled app as a separate process (kill -9 and restart).
  ok = step('build', bin('tsc'), ['-p', 'tsconfig.build.json']) && ok;
  const report = path.join(root, '.cache', 'jest-report.json');
  mkdirSync(path.dirname(report), { recursive: true });
  rmSync(report, { force: true });
  ok = step('jest (unit + integration)', bin('jest'), ['--ci', '--maxWorkers=2', '--json', `--outputFile=${report}`, ...process.argv.slice(2)]) && ok;
  await stopKafka();
  await stopPostgres();
  const counts = existsSync(report) ? JSON.parse(readFileSync(report, 'utf8')) : undefined;
  if (!counts) {
    console.log('tests: 0 passed, 1 failed');
    process.exit(1);
  }
  // Suites that could not run here say so in a skipped test's title: repeat them where nobody misses them.
  const notRun = counts.testResults.flatMap((f) => f.assertionResults).filter((t) => t.status === 'pending' && /NOT RUN/.test(t.title));
  for (const t of notRun) console.log(`\n!!! ${t.title}.\n!!! That adapter was NOT verified by this run.`);
  const skipped = counts.numPendingTests + counts.numTodoTests;
  // A suite that crashes before its tests run has no failed test of its own: count it as one failure.
  const failed = counts.numFailedTests + counts.numRuntimeErrorTestSuites;
  for (const f of counts.testResults.filter((r) => r.status === 'failed' && r.assertionResults.length === 0)) {
    console.log(`\n!!! suite failed to run: ${path.relative(root, f.name)}`);
  }
  console.log(`\ntests: ${counts.numPassedTests} passed, ${failed} failed, ${skipped} skipped`);
  process.exit(ok && counts.success ? 0 : 1);
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
