import { spawn, spawnSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import path from 'node:path';
import { Controller, Module } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { Ctx, EventPattern, Payload } from '@nestjs/microservices';
import { KafkaBatchContext } from './batch-context';
import { KafkaBatchServer } from './batch-server';
import { createKafka } from './kafka-client';
import type { TopicContract } from './validated-batch';

// A PSP core's Java producer with `compression.type` set, played by Kafka's own console producer
// (the jars tools/kafka runs the broker from), read by our consumer as the apps make it: a client
// from createKafka under KafkaBatchServer. Without the codecs of compression-codecs.ts, snappy,
// lz4 and zstd batches crash the consumer on every fetch and nothing arrives.
jest.setTimeout(180_000);

// The broker `npm test` provisions (a test, not the library, reads the environment).
// eslint-disable-next-line no-restricted-properties
const BROKERS = (process.env.KAFKA_BROKERS ?? '').split(',').filter(Boolean);
// eslint-disable-next-line no-restricted-properties
const JAVA = process.env.JAVA_HOME ? path.join(process.env.JAVA_HOME, 'bin', 'java') : 'java';
const JAVA_RUNS = spawnSync(JAVA, ['-version']).status === 0;
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { fetchKafka, KAFKA_VERSION } = require('../../../tools/kafka/kafka.js') as { fetchKafka(): Promise<{ lib: string }>; KAFKA_VERSION: string };
/** Kafka 4 moved the tool from Scala (`kafka.tools`) to Java (`org.apache.kafka.tools`). */
const CONSOLE_PRODUCER = KAFKA_VERSION.startsWith('3.') ? 'kafka.tools.ConsoleProducer' : 'org.apache.kafka.tools.ConsoleProducer';

const CODECS = ['gzip', 'snappy', 'lz4', 'zstd'] as const;
type Codec = (typeof CODECS)[number];
/** Per codec, in one produce batch (`--batch-size` 1 MiB; checked with DumpLogSegments): ~90 KB, more than one LZ4 block (64 KiB) or xerial chunk (32 KiB). */
const COUNT = 250;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** A cash-in-like value, with non-ASCII text: the bytes must arrive as sent. */
const valueOf = (codec: Codec, n: number) =>
  JSON.stringify({ versao: 1, endToEndId: `E12345678202611221500${codec.padEnd(6, 'x')}${String(n).padStart(5, '0')}`, valor: `${n + 1}.45`, infoPagador: `Obrigado, ${codec} nº ${n} — pagamento à vista`, pagador: { cpf: '12345678909', nome: 'Ana Conceição' }, nota: 'x'.repeat(n % 300) });
const correlationOf = (codec: Codec, n: number) => `corr-${codec}-${n}`;

/** Publishes with Kafka's Java console producer (`headers<TAB>key<TAB>value` lines) and waits for it to exit. */
function javaProduce(lib: string, topic: string, codec: Codec): Promise<void> {
  const lines = Array.from({ length: COUNT }, (_, n) => `x-correlation-id:${correlationOf(codec, n)}\tkey-${n % 7}\t${valueOf(codec, n)}\n`).join('');
  const args = ['-cp', path.join(lib, '*'), CONSOLE_PRODUCER, '--bootstrap-server', BROKERS.join(','), '--topic', topic, '--compression-codec', codec];
  args.push('--batch-size', String(1 << 20), '--timeout', '500', '--request-required-acks', 'all', '--property', 'parse.key=true', '--property', 'parse.headers=true');
  return new Promise((resolve, reject) => {
    const child = spawn(JAVA, args, { stdio: ['pipe', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (d) => (stderr += d));
    child.on('error', reject);
    // It reports a failed send on stderr and still exits 0: any line but log4j's start-up warnings counts.
    const failed = () => stderr.split('\n').filter((l) => l.trim() && !l.startsWith('log4j:WARN'));
    child.on('close', (code) => (code === 0 && failed().length === 0 ? resolve() : reject(new Error(`${codec} console producer exited ${code}: ${failed().join('\n')}`))));
    child.stdin.end(lines, 'utf8');
  });
}

/** Hands the handler every message's bytes as text (the test compares them to what was sent). */
const raw = (deadLetterTopic: string): TopicContract<string> => ({ parse: (value) => ({ value: value?.toString('utf8') ?? '' }), deadLetterTopic });

if (!BROKERS.length || !JAVA_RUNS) {
  describe('compressed batches from a Java producer', () => {
    const why = !BROKERS.length ? 'KAFKA_BROKERS is not set' : `no Java at ${JAVA}`;
    console.warn(`compression.int.ts NOT RUN: ${why}`);
    it.skip(`reading gzip, snappy, lz4 and zstd batches NOT RUN: ${why}`, () => undefined);
  });
} else {
  describe('compressed batches from a Java producer (real broker)', () => {
    const run = randomUUID().slice(0, 8);
    const topicOf = (codec: Codec) => `test.compression.${codec}.${run}`;
    const dlt = `test.compression.${run}.dlt`;
    const kafka = createKafka(BROKERS, 'test-compression');

    beforeAll(async () => {
      const admin = kafka.admin();
      await admin.connect();
      await admin.createTopics({ waitForLeaders: true, topics: [...CODECS.map((c) => ({ topic: topicOf(c), numPartitions: 1 })), { topic: dlt, numPartitions: 1 }] });
      await admin.disconnect();
      const { lib } = await fetchKafka();
      // Two at a time: each is a JVM, on a 2-core machine.
      for (const pair of [CODECS.slice(0, 2), CODECS.slice(2)]) await Promise.all(pair.map((codec) => javaProduce(lib, topicOf(codec), codec)));
    });
    afterAll(async () => {
      const admin = kafka.admin();
      await admin.connect();
      await admin.deleteTopics({ topics: [...CODECS.map(topicOf), dlt] }).catch(() => undefined);
      await admin.disconnect();
    });

    it.each(CODECS)('reads every %s message intact, with its header, as an uncompressed one', async (codec) => {
      const topic = topicOf(codec);
      const transportId = Symbol(codec);
      const got: { value: string; correlationId?: string }[] = [];
      @Controller()
      class CompressedConsumer {
        @EventPattern(topic, transportId)
        async onBatch(@Payload() batch: string[], @Ctx() context: KafkaBatchContext) {
          batch.forEach((value, i) => got.push({ value, correlationId: context.getTraces()[i]?.correlationId }));
        }
      }
      @Module({ controllers: [CompressedConsumer] })
      class CompressedModule {}

      const errors: string[] = [];
      const server = new KafkaBatchServer({ transportId, kafka, groupId: `test-compression-${codec}-${run}`, topics: { [topic]: raw(dlt) }, logger: { log: () => undefined, error: (m) => errors.push(m) } });
      const app = await NestFactory.createMicroservice(CompressedModule, { strategy: server, logger: false });
      await app.listen();
      try {
        for (const deadline = Date.now() + 30_000; got.length < COUNT; await sleep(50)) {
          if (Date.now() > deadline) throw new Error(`${codec}: ${got.length} of ${COUNT} messages read; consumer errors: ${[...new Set(errors)].slice(0, 3).join(' | ') || 'none'}`);
        }
      } finally {
        await app.close();
      }
      expect(got).toEqual(Array.from({ length: COUNT }, (_, n) => ({ value: valueOf(codec, n), correlationId: correlationOf(codec, n) })));
      expect(errors).toEqual([]);
    });
  });
}
