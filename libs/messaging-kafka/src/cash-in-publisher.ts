import { CASH_IN_TOPIC, CORRELATION_ID_HEADER, type CashInTrace, type PixRecebidoMessage } from '@pix/contracts';
import type { Kafka, Producer } from 'kafkajs';

/** Key = the receiver's Pix key, so one key's cash-ins stay in order; acks from all replicas. */
export class KafkaCashInPublisher {
  private readonly producer: Producer;

  constructor(kafka: Kafka) {
    // Give it a client made with KAFKA_PUBLISH_RETRY when a request waits for the send.
    this.producer = kafka.producer({ idempotent: true, maxInFlightRequests: 1 });
  }

  connect(): Promise<void> {
    return this.producer.connect();
  }

  /** `trace.correlationId` goes as the `x-correlation-id` header: consumers log under it. */
  async publish(message: PixRecebidoMessage, trace?: CashInTrace): Promise<void> {
    const headers: Record<string, string> = { 'content-type': 'application/json' };
    if (trace?.correlationId) headers[CORRELATION_ID_HEADER] = trace.correlationId;
    await this.producer.send({
      topic: CASH_IN_TOPIC,
      acks: -1,
      messages: [{ key: message.chave, value: JSON.stringify(message), headers }],
    });
  }

  disconnect(): Promise<void> {
    return this.producer.disconnect();
  }
}
