import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { createResponseValidator, createTestDatabase, type TestDatabase } from '@pix/testing';
import { loadConfig, type AppConfig } from '../../apps/api/src/config/config';
import type { Clock } from '../../apps/api/src/shared/ports';
import { createApiApp } from '../../apps/api/src/server';

export interface ApiResponse {
  status: number;
  headers: Headers;
  text: string;
  body: any;
}

export interface RunningApi {
  baseUrl: string;
  config: AppConfig;
  db: TestDatabase;
  app: NestFastifyApplication;
  /** Sends a request and fails the test unless the answer validates against the official contract. */
  request(method: string, path: string, body?: unknown, headers?: Record<string, string>): Promise<ApiResponse>;
  /** The same, sending `raw` as the body byte for byte. */
  raw(method: string, path: string, raw: string | Buffer, headers?: Record<string, string>): Promise<ApiResponse>;
  stop(options?: { keepDatabase?: boolean }): Promise<void>;
}

const validator = createResponseValidator();

/** The real API app on a real port, over a fresh PostgreSQL database (or a given one). */
export async function startApi(options: { env?: Record<string, string>; db?: TestDatabase; clock?: Clock } = {}): Promise<RunningApi> {
  const db = options.db ?? (await createTestDatabase('api_e2e'));
  const config = loadConfig({ MODE: 'local', PORT: '0', LOG_LEVEL: 'error', ...options.env });
  const app = await createApiApp({ config, databaseUrl: db.url, clock: options.clock });
  try {
    await app.listen({ port: 0, host: '127.0.0.1' });
  } catch (error) {
    await app.close().catch(() => undefined);
    if (!options.db) await db.drop().catch(() => undefined);
    throw error;
  }
  const address = app.getHttpServer().address() as { port: number };
  const baseUrl = `http://127.0.0.1:${address.port}`;

  const send = async (method: string, path: string, payload: string | Buffer | undefined, headers: Record<string, string>) => {
    const response = await fetch(`${baseUrl}${config.basePath}${path}`, { method, body: payload, headers });
    const text = await response.text();
    let body: any = text;
    try {
      body = text ? JSON.parse(text) : undefined;
    } catch {
      /* not JSON: the validator will say so */
    }
    const result = validator.validateResponse({
      method,
      path: path.split('?')[0],
      status: response.status,
      contentType: response.headers.get('content-type') ?? undefined,
      body: text === '' ? text : body,
    });
    if (!result.valid) throw new Error(`${method} ${path} → ${response.status} does not match the official contract:\n${result.errors.join('\n')}\n${text.slice(0, 2000)}`);
    return { status: response.status, headers: response.headers, text, body };
  };

  return {
    baseUrl,
    config,
    db,
    app,
    request: (method, path, body, headers = {}) =>
      send(method, path, body === undefined ? undefined : JSON.stringify(body), body === undefined ? headers : { 'content-type': 'application/json', ...headers }),
    raw: (method, path, raw, headers = { 'content-type': 'application/json' }) => send(method, path, raw, headers),
    async stop({ keepDatabase = false } = {}) {
      await app.close();
      if (!keepDatabase && !options.db) await db.drop();
    },
  };
}

/** A txid of the contract's shape: 26 to 35 letters and digits. */
export const newTxid = (prefix = 't') => `${prefix}${Date.now().toString(36)}${Math.random().toString(36).slice(2)}`.replace(/[^a-zA-Z0-9]/g, '').padEnd(30, '0').slice(0, 35);

export const LOCAL_KEY = '5f84a4c5-c5cb-4599-9f13-7eb4d419dacc';

/** A valid PUT body due in `daysAhead` days. */
export function validCobV(over: Record<string, unknown> = {}, daysAhead = 30): Record<string, any> {
  const due = new Date(Date.now() + daysAhead * 86_400_000).toISOString().slice(0, 10);
  return {
    calendario: { dataDeVencimento: due, validadeAposVencimento: 30 },
    devedor: { cpf: '12345678909', nome: 'Francisco da Silva', logradouro: 'Alameda Souza, Numero 80', cidade: 'Recife', uf: 'PE', cep: '70011750' },
    valor: { original: '123.45' },
    chave: LOCAL_KEY,
    solicitacaoPagador: 'Cobrança dos serviços prestados.',
    ...over,
  };
}
