import { KafkaLogs } from '@pix/messaging-kafka';
import { logLevel } from 'kafkajs';
import { failureLine, plainKafkaSink } from './cli';

// A README audit: `KAFKA_BROKERS=… npm run dead-letters -- list` with the broker away printed
// Nest's coloured lines with a stack per refused connect and ended on a bare kafkajs message.
describe('dead-letters: a cluster out of reach', () => {
  it('ends on one line that says what to do', () => {
    const line = failureLine(new Error('Connection error: connect ECONNREFUSED 127.0.0.1:9092'), ['127.0.0.1:9092']);
    expect(line).toBe(
      'dead-letters failed: Connection error: connect ECONNREFUSED 127.0.0.1:9092. Fix: start the Kafka cluster, or correct KAFKA_BROKERS (127.0.0.1:9092), then run the command again',
    );
  });

  it('adds no fix to a failure that is not about reaching the cluster', () => {
    expect(failureLine(new Error('pix.cash-in.v1.dlt: not read to its end within 60 s (partitions left: 0)'), ['k:9092'])).toBe(
      'dead-letters failed: pix.cash-in.v1.dlt: not read to its end within 60 s (partitions left: 0)',
    );
  });

  it("writes kafkajs's errors as plain lines, without their stacks", () => {
    const lines: string[] = [];
    const log = new KafkaLogs(plainKafkaSink((l) => lines.push(l))).logCreator(logLevel.ERROR);
    const stack = 'Error: connect ECONNREFUSED 127.0.0.1:9092\n    at TCPConnectWrap.afterConnect';
    log({ namespace: 'Connection', level: logLevel.ERROR, label: 'ERROR', log: { timestamp: '', message: 'Connection error: connect ECONNREFUSED 127.0.0.1:9092', clientId: 'pix-dead-letters', stack } });
    log({ namespace: 'Consumer', level: logLevel.INFO, label: 'INFO', log: { timestamp: '', message: 'Starting' } });
    expect(lines).toEqual(['kafkajs: [Connection] Connection error: connect ECONNREFUSED 127.0.0.1:9092 (clientId pix-dead-letters)']);
  });
});
