#!/usr/bin/env node
// Smoke test of the test broker: start it, create a 3-partition topic, produce 100 keyed messages,
// consume them with a consumer group, check every message arrived and per-key order held, stop.
//   node tools/kafka/kafka.smoke.js      (env as for kafka.js: KAFKA_CACHE_DIR, JAVA_HOME, ...)
// Prints timings (fetch, format, start-to-ready, round trip, stop) and exits non-zero on failure.
'use strict';
process.env.KAFKAJS_NO_PARTITIONER_WARNING = '1';
const { Kafka, logLevel } = require('kafkajs');
const { startKafka } = require('./kafka.js');

const TOPIC = 'smoke.cash-in';
// Pix keys of several kinds (CPF, e-mail, phone, EVP, CNPJ); with the Java-compatible murmur2
// partitioner (kafkajs 2 default) they land on all 3 partitions.
const KEYS = ['12345678909', 'fulano@example.com', '+5561999990000', '3d2f6c1e-7b8a-4c9d-9e0f-1a2b3c4d5e6f', '11222333000181', '11144477735', 'beltrano@example.org', '+5531966665555'];
const COUNT = 100;

async function main() {
  const started = Date.now();
  const broker = await startKafka({ log: (m) => console.log(m) });
  const timings = { ...broker.timings };
  try {
    const kafka = new Kafka({ clientId: 'kafka-smoke', brokers: [broker.brokers], logLevel: logLevel.NOTHING }); // retriable errors while __consumer_offsets is created are noise
    const admin = kafka.admin();
    await admin.connect();
    await admin.createTopics({ waitForLeaders: true, topics: [{ topic: TOPIC, numPartitions: 3, replicationFactor: 1 }] });
    const meta = await admin.fetchTopicMetadata({ topics: [TOPIC] });
    await admin.disconnect();
    const partitions = meta.topics[0].partitions.length;
    if (partitions !== 3) throw new Error(`expected 3 partitions, got ${partitions}`);

    const t = Date.now();
    const received = [];
    let done;
    const allIn = new Promise((resolve) => (done = resolve));
    const consumer = kafka.consumer({ groupId: `smoke-${Date.now()}` });
    await consumer.connect();
    await consumer.subscribe({ topics: [TOPIC], fromBeginning: true });
    await consumer.run({
      eachMessage: async ({ partition, message }) => {
        received.push({ partition, key: message.key.toString(), seq: Number(message.value.toString()) });
        if (received.length >= COUNT) done();
      },
    });

    const producer = kafka.producer({ idempotent: true, maxInFlightRequests: 1 });
    await producer.connect();
    const messages = Array.from({ length: COUNT }, (_, seq) => ({ key: KEYS[seq % KEYS.length], value: String(seq) }));
    await producer.send({ topic: TOPIC, acks: -1, messages });
    await producer.disconnect();

    const timeout = new Promise((_, reject) => setTimeout(() => reject(new Error(`only ${received.length}/${COUNT} messages after 30 s`)), 30_000).unref());
    await Promise.race([allIn, timeout]);
    timings.roundTripMs = Date.now() - t;
    await consumer.disconnect();

    // Every message exactly once, each key on one partition, each key's messages in send order.
    const seqs = received.map((r) => r.seq).sort((a, b) => a - b);
    if (seqs.length !== COUNT || seqs.some((s, i) => s !== i)) throw new Error(`wrong set of messages: ${JSON.stringify(seqs)}`);
    const used = new Set();
    for (const key of KEYS) {
      const mine = received.filter((r) => r.key === key);
      const parts = new Set(mine.map((r) => r.partition));
      if (parts.size !== 1) throw new Error(`key ${key} spread over partitions ${[...parts]}`);
      used.add(mine[0].partition);
      const order = mine.map((r) => r.seq);
      if (order.some((s, i) => i > 0 && s < order[i - 1])) throw new Error(`key ${key} out of order: ${order}`);
    }
    if (used.size !== partitions) throw new Error(`keys used only partitions [${[...used]}] of ${partitions}`);
    console.log(`OK: ${COUNT} messages over ${KEYS.length} keys on partitions [${[...used].sort()}] of ${partitions}, per-key order kept`);
  } finally {
    const t = Date.now();
    await broker.stop();
    timings.stopMs = Date.now() - t;
  }
  const s = (ms) => (ms === undefined ? '-' : `${(ms / 1000).toFixed(2)} s`);
  console.log(
    `timings: fetch ${s(timings.fetchMs)}, format ${s(timings.formatMs)}, start-to-ready ${s(timings.startToReadyMs)}, ` +
      `round trip ${s(timings.roundTripMs)}, stop ${s(timings.stopMs)}, total ${s(Date.now() - started)}`,
  );
}

main().catch((error) => {
  console.error(`SMOKE FAILED: ${error.stack || error.message}`);
  process.exit(1);
});
