#!/usr/bin/env node
// Single-node KRaft Kafka broker for tests and CI from the Apache Kafka jars on Maven Central and the
// local JDK (no Docker). CLI: `fetch` (cache the jars only) | `start` (foreground, prints
// KAFKA_BROKERS=127.0.0.1:<port>). Library: `await startKafka()` -> { brokers, stop, kill, restart }. See README.md.
'use strict';
const { spawn } = require('node:child_process');
const crypto = require('node:crypto');
const fs = require('node:fs');
const net = require('node:net');
const os = require('node:os');
const path = require('node:path');

const KAFKA_VERSION = '3.9.2'; // keep equal to <kafka.version> in pom.xml
const POM = path.join(__dirname, 'pom.xml');
const DEFAULT_CACHE = path.join(__dirname, '..', '..', '.cache', 'kafka');
const READY_TIMEOUT_MS = 60_000;
const STOP_GRACE_MS = 20_000;
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
const slash = (p) => p.split(path.sep).join('/'); // .properties files treat "\" as an escape
const javaBin = () => (process.env.JAVA_HOME ? path.join(process.env.JAVA_HOME, 'bin', 'java') : 'java');

const readOr = (file, fallback = '') => (fs.existsSync(file) ? fs.readFileSync(file, 'utf8') : fallback);
const tail = (file, lines = 40) => readOr(file).trimEnd().split('\n').slice(-lines).join('\n');

// The first ERROR/FATAL entries of a Kafka log, each with the line after it (the exception message).
function firstErrors(file, max = 6) {
  const lines = readOr(file).split('\n');
  const found = [];
  lines.forEach((line, i) => {
    if (found.length < max && /^\[[^\]]+\] (ERROR|FATAL) /.test(line)) found.push(line, ...(/^\s*\[/.test(lines[i + 1] || '[') ? [] : [lines[i + 1]]));
  });
  return found.join('\n');
}

// Runs a command to completion -> { code, output } (stdout+stderr); rejects if it cannot be spawned.
// Killed if this process exits first, so a fetch or format never outlives it.
const running = new Set();
process.on('exit', () => running.forEach((child) => child.kill('SIGKILL')));
function run(command, args, options = {}) {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { stdio: ['ignore', 'pipe', 'pipe'], ...options });
    running.add(child);
    let output = '';
    child.stdout.on('data', (d) => (output += d));
    child.stderr.on('data', (d) => (output += d));
    child.on('error', (error) => running.delete(child) && reject(error));
    child.on('close', (code) => running.delete(child) && resolve({ code, output: output.replace(/\x1b\[[0-9;]*m/g, '') }));
  });
}

/** Downloads the broker jars into <cacheDir>/lib once; a marker file records the version. */
async function fetchKafka({ cacheDir = process.env.KAFKA_CACHE_DIR || DEFAULT_CACHE, log = () => {} } = {}) {
  const lib = path.join(cacheDir, 'lib');
  const marker = path.join(lib, '.kafka-version');
  if (readOr(marker).trim() === KAFKA_VERSION) return { lib, fetched: false };
  fs.mkdirSync(cacheDir, { recursive: true });
  const staging = fs.mkdtempSync(path.join(cacheDir, 'lib-'));
  const mvn = process.env.KAFKA_MVN || (process.platform === 'win32' ? 'mvn.cmd' : 'mvn');
  log(`Fetching Apache Kafka ${KAFKA_VERSION} jars from Maven Central into ${lib} (once) ...`);
  const args = ['-B', '-q', '-Dstyle.color=never', '-f', POM, 'dependency:copy-dependencies', `-DoutputDirectory=${staging}`, '-DincludeScope=runtime'];
  const result = await run(mvn, args, { shell: process.platform === 'win32' }).catch((error) => ({ error }));
  if (result.error || result.code !== 0 || !fs.readdirSync(staging).some((f) => f.startsWith('kafka_2.13-'))) {
    fs.rmSync(staging, { recursive: true, force: true });
    const alternative = 'Alternatively set KAFKA_BROKERS to an existing broker.';
    if (result.error) {
      throw new Error(`Cannot run Maven ("${mvn}": ${result.error.code || result.error.message}). Maven 3 and a JDK 17 are ` +
        `needed to fetch the Kafka broker jars from Maven Central: install Maven or set KAFKA_MVN to it. ${alternative}`);
    }
    throw new Error(`Maven could not fetch Apache Kafka ${KAFKA_VERSION} (exit ${result.code}). Is Maven Central reachable ` +
      `(offline? proxy? ~/.m2/settings.xml)? ${alternative}\n--- mvn ${args.join(' ')}\n${result.output.trim().split('\n').slice(-25).join('\n')}`);
  }
  fs.writeFileSync(path.join(staging, '.kafka-version'), `${KAFKA_VERSION}\n`);
  fs.rmSync(lib, { recursive: true, force: true });
  try {
    fs.renameSync(staging, lib);
  } catch (error) {
    // Another process finished first with the same version: use its copy.
    fs.rmSync(staging, { recursive: true, force: true });
    if (!fs.existsSync(marker)) throw error;
  }
  return { lib, fetched: true };
}

// A free port on 127.0.0.1 (0: any), or a clear error when the requested one is taken.
function freePort(wanted = 0) {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.unref();
    server.on('error', (error) => reject(new Error(`Kafka: cannot use port ${wanted} on 127.0.0.1 (${error.code || error.message})`)));
    server.listen(wanted, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

function serverProperties({ runDir, port, controllerPort, overrides }) {
  const props = {
    'process.roles': 'broker,controller',
    'node.id': '1',
    'controller.quorum.voters': `1@127.0.0.1:${controllerPort}`,
    listeners: `PLAINTEXT://127.0.0.1:${port},CONTROLLER://127.0.0.1:${controllerPort}`,
    'advertised.listeners': `PLAINTEXT://127.0.0.1:${port}`,
    'listener.security.protocol.map': 'PLAINTEXT:PLAINTEXT,CONTROLLER:PLAINTEXT',
    'inter.broker.listener.name': 'PLAINTEXT',
    'controller.listener.names': 'CONTROLLER',
    'log.dirs': slash(path.join(runDir, 'data')),
    // Topics are created explicitly (as in production): a producer or consumer touching an unknown
    // topic fails instead of silently getting a 1-partition topic that hides per-key ordering bugs.
    'auto.create.topics.enable': 'false',
    'offsets.topic.replication.factor': '1',
    'offsets.topic.num.partitions': '1', // first consumer group joins fast (default 50 partitions)
    'transaction.state.log.replication.factor': '1',
    'transaction.state.log.min.isr': '1',
    'transaction.state.log.num.partitions': '1',
    'group.initial.rebalance.delay.ms': '0',
    'num.network.threads': '2',
    'num.io.threads': '4',
    ...overrides,
  };
  return Object.entries(props).map(([k, v]) => `${k}=${v}`).join('\n') + '\n';
}

const log4jProperties = (serverLog) => `log4j.rootLogger=INFO, file
log4j.appender.file=org.apache.log4j.FileAppender
log4j.appender.file.File=${slash(serverLog)}
log4j.appender.file.layout=org.apache.log4j.PatternLayout
log4j.appender.file.layout.ConversionPattern=[%d] %p %m (%c)%n
log4j.logger.state.change.logger=WARN
log4j.logger.kafka.request.logger=WARN
`;

async function waitReady(brokers, ended, serverLog, deadline) {
  const { Kafka, logLevel } = require('kafkajs');
  const kafka = new Kafka({ clientId: 'kafka-ready', brokers: [brokers], logLevel: logLevel.NOTHING, connectionTimeout: 1000, requestTimeout: 3000, retry: { retries: 0 } });
  for (;;) {
    if (ended() !== null) throw new Error(`the broker exited (${ended()})`);
    if (/Exiting Kafka due to fatal exception/.test(tail(serverLog, 50))) throw new Error('fatal error during broker start-up');
    const admin = kafka.admin();
    try {
      await admin.connect();
      await admin.listTopics();
      return;
    } catch (error) {
      if (Date.now() > deadline) throw new Error(`not ready after ${READY_TIMEOUT_MS / 1000} s (${error.message})`);
    } finally {
      await admin.disconnect().catch(() => {});
    }
    await sleep(200);
  }
}

// Kills the broker if this Node process dies without stopping it (even by SIGKILL). POSIX only.
function watchdog(javaPid, runDir) {
  if (process.platform === 'win32') return undefined;
  const script = `trap '' INT HUP; while kill -0 "$1" 2>/dev/null && kill -0 "$2" 2>/dev/null; do sleep 1; done
kill -0 "$1" 2>/dev/null && exit 0; kill -TERM "$2" 2>/dev/null; i=0
while [ $i -lt ${STOP_GRACE_MS / 1000} ] && kill -0 "$2" 2>/dev/null; do sleep 1; i=$((i+1)); done
kill -KILL "$2" 2>/dev/null; [ -n "$KAFKA_KEEP_RUN_DIR" ] || rm -rf "$3"`;
  const dog = spawn('/bin/sh', ['-c', script, 'kafka-watchdog', String(process.pid), String(javaPid), runDir], { stdio: 'ignore' });
  dog.on('error', () => {});
  dog.unref();
  return dog;
}

// Starts a fresh single-node KRaft broker on 127.0.0.1 (new cluster id and data folder each time);
// resolves once a kafkajs admin client can list topics; `kill` and `restart` crash it and bring it
// back on the same port and data (fault tests). Options: cacheDir, port, controllerPort,
// log (progress messages), overrides (extra server.properties entries).
async function startKafka(options = {}) {
  const cacheDir = options.cacheDir || process.env.KAFKA_CACHE_DIR || DEFAULT_CACHE;
  const log = options.log || (() => {});
  const timings = {};
  let t = Date.now();
  const { lib } = await fetchKafka({ cacheDir, log });
  timings.fetchMs = Date.now() - t;

  const port = await freePort(Number(options.port || process.env.KAFKA_PORT || 0));
  let controllerPort = await freePort(Number(options.controllerPort || 0));
  while (controllerPort === port) controllerPort = await freePort();
  const runDir = fs.mkdtempSync(path.join(os.tmpdir(), 'pix-kafka-'));
  const [props, log4j, outFile, serverLog] = ['server.properties', 'log4j.properties', 'java.out', 'server.log'].map((f) => path.join(runDir, f));
  fs.writeFileSync(props, serverProperties({ runDir, port, controllerPort, overrides: options.overrides }));
  fs.writeFileSync(log4j, log4jProperties(serverLog));
  const common = ['-Djava.awt.headless=true', `-Dlog4j.configuration=file:${slash(log4j)}`, `-Dkafka.logs.dir=${slash(runDir)}`, '-cp', path.join(lib, '*')];
  const heap = (process.env.KAFKA_HEAP_OPTS || '-Xmx512m -Xms256m').split(/\s+/).filter(Boolean);
  const failure = (what, detail) =>
    new Error(`Kafka ${what}: ${detail}\nRun folder: ${runDir}\n--- last lines of ${outFile}\n${tail(outFile, 15)}\n` +
      `--- first errors in ${serverLog}\n${firstErrors(serverLog)}\n--- last lines of ${serverLog}\n${tail(serverLog, 15)}`);

  // Format the storage: a random cluster id (Kafka's Uuid is 16 bytes, base64url, no padding).
  // One that starts with '-' reads as an option to the tool (1 start in 64 failed with
  // "--cluster-id: expected one argument"); Kafka's own Uuid.randomUuid draws again too.
  t = Date.now();
  let clusterId;
  do clusterId = crypto.randomBytes(16).toString('base64url');
  while (clusterId.startsWith('-'));
  let formatted;
  try {
    // A short-lived JVM: C1 only and the serial collector start faster.
    formatted = await run(javaBin(), ['-Xmx256m', '-XX:TieredStopAtLevel=1', '-XX:+UseSerialGC', ...common, 'kafka.tools.StorageTool', 'format', '-t', clusterId, '-c', props]);
  } catch (error) {
    fs.rmSync(runDir, { recursive: true, force: true });
    throw new Error(`Cannot run Java ("${javaBin()}": ${error.code || error.message}); a JDK 17 is needed (set JAVA_HOME or PATH).`);
  }
  fs.appendFileSync(outFile, formatted.output);
  if (formatted.code !== 0) throw failure('storage format failed', `exit ${formatted.code}`);
  timings.formatMs = Date.now() - t;

  // One JVM run on the formatted storage; `restart` makes another on the same data and ports.
  const brokers = `127.0.0.1:${port}`;
  let jvm; // { child, ended(), exited, dog, onExit }
  const launch = () => {
    const out = fs.openSync(outFile, 'a');
    const child = spawn(javaBin(), [...heap, '-XX:+UseG1GC', '-XX:MaxGCPauseMillis=20', ...common, 'kafka.Kafka', props], { stdio: ['ignore', out, out] });
    fs.closeSync(out);
    let ended = null; // exit code or signal once the broker process is gone
    const exited = new Promise((resolve) => {
      child.on('exit', (code, signal) => resolve((ended = code ?? signal)));
      child.on('error', (error) => resolve((ended = error.code || 'spawn error')));
    });
    child.unref();
    const dog = child.pid ? watchdog(child.pid, runDir) : undefined;
    const onExit = () => ended === null && child.kill('SIGTERM');
    process.on('exit', onExit);
    jvm = { child, ended: () => ended, exited, dog, onExit };
    return jvm;
  };
  // Ends the current JVM: SIGTERM (SIGKILL after the grace period), or `signal` at once.
  const end = async (current, signal) => {
    process.off('exit', current.onExit);
    if (current.ended() === null) {
      current.child.kill(signal || 'SIGTERM');
      // The child is unref'd: this timer also keeps Node alive until it has exited.
      const timer = setTimeout(() => current.child.kill('SIGKILL'), signal ? 2 ** 31 - 1 : STOP_GRACE_MS);
      await current.exited;
      clearTimeout(timer);
    }
    if (current.dog && current.dog.exitCode === null) current.dog.kill('SIGKILL');
  };
  const ready = async (current, what) => {
    try {
      await waitReady(brokers, current.ended, serverLog, Date.now() + READY_TIMEOUT_MS);
    } catch (error) {
      await halt(true); // keep the logs for whoever reads the error
      throw failure(what, error.message);
    }
  };

  let stopping;
  const halt = (keepRunDir) =>
    (stopping ??= (async () => {
      await end(jvm);
      if (!keepRunDir) fs.rmSync(runDir, { recursive: true, force: true });
    })());
  const stop = () => halt(Boolean(process.env.KAFKA_KEEP_RUN_DIR));

  t = Date.now();
  await ready(launch(), 'did not start');
  timings.startToReadyMs = Date.now() - t;
  log(`Kafka ${KAFKA_VERSION} ready at ${brokers} (run folder ${runDir})`);
  return {
    brokers,
    stop,
    /** Settles when the current JVM exits (with its exit code or signal). */
    get exited() {
      return jvm.exited;
    },
    /** The current JVM's pid. */
    get pid() {
      return jvm.child.pid;
    },
    /** Sends `signal` (default SIGKILL, a crash) to the JVM and waits for it to exit; data and ports are kept. */
    kill: (signal = 'SIGKILL') => end(jvm, signal),
    /** Starts the broker again on the same port and data (after `kill`); resolves once it is ready. */
    async restart() {
      if (stopping) throw new Error('Kafka: restart after stop');
      if (jvm.ended() === null) throw new Error('Kafka: restart while the broker runs (kill it first)');
      await ready(launch(), 'did not restart');
    },
    runDir,
    clusterId,
    timings,
    version: KAFKA_VERSION,
  };
}

async function cli(command) {
  const log = (message) => process.stderr.write(`${message}\n`);
  if (command === 'fetch') {
    const { lib, fetched } = await fetchKafka({ log });
    log(fetched ? `Fetched Kafka ${KAFKA_VERSION} into ${lib}` : `Kafka ${KAFKA_VERSION} already cached in ${lib}`);
    return;
  }
  if (command !== 'start') {
    log('usage: node tools/kafka/kafka.js fetch|start   (env: KAFKA_CACHE_DIR, KAFKA_PORT, KAFKA_HEAP_OPTS, KAFKA_KEEP_RUN_DIR, JAVA_HOME, KAFKA_MVN)');
    process.exit(2);
  }
  let kafka;
  let shuttingDown = false;
  const shutdown = async (signal) => {
    if (shuttingDown) return;
    shuttingDown = true;
    log(`${signal}: stopping Kafka ...`);
    if (kafka) await kafka.stop();
    process.exit(kafka ? 0 : 130); // still starting: the 'exit' handlers stop the children
  };
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) process.on(signal, () => shutdown(signal));
  kafka = await startKafka({ log });
  kafka.exited.then((code) => {
    if (shuttingDown) return;
    const serverLog = path.join(kafka.runDir, 'server.log');
    log(`Kafka exited unexpectedly (${code}); logs in ${kafka.runDir}\n${firstErrors(serverLog)}\n...\n${tail(serverLog, 15)}`);
    process.exit(1);
  });
  process.stdout.write(`KAFKA_BROKERS=${kafka.brokers}\n`);
  setInterval(() => {}, 1 << 30); // stay in the foreground until a signal arrives
}

module.exports = { startKafka, fetchKafka, KAFKA_VERSION };

if (require.main === module) {
  cli(process.argv[2]).catch((error) => {
    process.stderr.write(`${error.message}\n`);
    process.exit(1);
  });
}
