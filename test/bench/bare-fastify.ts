/**
 * The HTTP ceiling: the same Fastify the API runs on (resolved through @nestjs/platform-fastify),
 * no Nest, no validation, no database. It parses the JSON body of a PUT like the API does and
 * answers with the API's own response bodies (captured by the bench from real requests).
 */
import path from 'node:path';
import type { FastifyInstance } from 'fastify';

const fastifyPath = require.resolve('fastify', { paths: [path.dirname(require.resolve('@nestjs/platform-fastify'))] });
// eslint-disable-next-line @typescript-eslint/no-require-imports
const Fastify = require(fastifyPath) as (options?: object) => FastifyInstance;

async function main(): Promise<void> {
  const port = Number(process.env.BARE_PORT);
  const putResponse = process.env.BARE_PUT_RESPONSE ?? '{}';
  const getResponse = process.env.BARE_GET_RESPONSE ?? '{}';
  const app = Fastify({ bodyLimit: 1_048_576 });
  const json = 'application/json; charset=utf-8';
  app.get('/health', async () => ({ status: 'ok' }));
  app.put('/v2/cobv/:txid', async (request, reply) => {
    if (typeof request.body !== 'object' || request.body === null) return reply.code(400).send();
    return reply.code(201).header('content-type', json).send(putResponse);
  });
  app.get('/v2/cobv/:txid', async (_request, reply) => reply.code(200).header('content-type', json).send(getResponse));
  await app.listen({ port, host: '127.0.0.1' });
  const stop = () => void app.close().then(() => process.exit(0));
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
