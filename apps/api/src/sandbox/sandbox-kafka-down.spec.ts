import { Logger, type LoggerService } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';
import { SandboxCashInController } from './sandbox-cash-in.controller';

// A README audit: in local mode with KAFKA_BROKERS and the broker away, the sandbox payer answered
// a generic 503 and the terminal showed only the access line: nothing said Kafka was the cause.
describe('sandbox payer with KAFKA_BROKERS and the broker away', () => {
  it('says in the log that the cash-in was not published, and where to look', async () => {
    const warned: string[] = [];
    const quiet = () => undefined;
    const capture: LoggerService = { log: quiet, error: quiet, warn: (m: unknown) => void warned.push(String(m)), debug: quiet, verbose: quiet };
    Logger.overrideLogger(capture);
    const refused = Object.assign(new Error('Connection error: connect ECONNREFUSED 127.0.0.1:9092'), { name: 'KafkaJSConnectionError' });
    const local = { id: 'local', nome: 'Empresa', cnpj: '56989000019563', logradouro: 'Rua 15', cidade: 'São Paulo', uf: 'SP', cep: '70800100', chaves: ['dev@example.com'] };
    const controller = new SandboxCashInController(
      { readStream: async () => [] } as never,
      { publish: () => Promise.reject(refused) } as never,
      { recebedor: async () => local } as never,
      { now: () => new Date() } as never,
      { kafkaBrokers: ['127.0.0.1:9092'] } as never,
      {} as never,
    );
    try {
      await expect(controller.cashIn({ chave: 'dev@example.com', valor: '10.00' }, { headers: {} } as FastifyRequest)).rejects.toBe(refused);
      expect(warned).toEqual([
        'payment not made: its cash-in was not published to Kafka at 127.0.0.1:9092 (Connection error: connect ECONNREFUSED 127.0.0.1:9092); is the broker up? GET /health says whether it answers',
      ]);
    } finally {
      Logger.overrideLogger(false);
    }
  });
});
