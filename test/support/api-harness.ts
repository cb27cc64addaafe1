import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { createResponseValidator, createTestDatabase, type TestDatabase } from '@pix/testing';
import { loadConfig, type AppConfig } from '../../apps/api/src/config/config';
import type { Clock } from '../../apps/api/src/shared/ports';
import { createApiApp } from '../../apps/api/src/server';
import { fetchToken, PRODUCTION_TEST_DEFAULTS, provisionAccess, TEST_CLIENT, TEST_PIX_KEY, TEST_TOKEN_KEY } from './api-process';
import { testPayloadSigningEnv } from './payload-keys';

export interface ApiResponse {
  status: number;
  headers: Headers;
  text: string;
  body: any;
}

/** `auth: false` sends no Authorization header (else the harness's token goes, unless `headers` has one). */
export interface SendOptions {
  auth?: boolean;
}

export interface RunningApi {
  baseUrl: string;
  config: AppConfig;
  db: TestDatabase;
  app: NestFastifyApplication;
  /**
   * Sends a request and fails the test unless the answer validates against the official contract
   * (a 401, which the contract does not define, must be the exact about:blank problem).
   */
  request(method: string, path: string, body?: unknown, headers?: Record<string, string>, options?: SendOptions): Promise<ApiResponse>;
  /** The same, sending `raw` as the body byte for byte. */
  raw(method: string, path: string, raw: string | Buffer, headers?: Record<string, string>, options?: SendOptions): Promise<ApiResponse>;
  /** The harness's client (local: LOCAL_CLIENT_*; production: the test client), every scope. */
  client: { clientId: string; secret: string };
  /** A token from POST /oauth/token: of the harness's client unless told, with every scope unless `scope` narrows. */
  tokenFor(options?: { clientId?: string; secret?: string; scope?: string }): Promise<string>;
  stop(options?: { keepDatabase?: boolean }): Promise<void>;
}

const validator = createResponseValidator();

/**
 * The real API app on a real port, over a fresh PostgreSQL database (or a given one). Local
 * mode seeds its receiver and client itself; production mode gets the test receiver (with
 * `chaves`, default the test key) and client registered first, as `npm run admin` would. The token key is the shared test key unless `env` sets one or a DATA_DIR,
 * so no test writes a key file into the repository; production mode runs on the test database.
 */
export async function startApi(options: { env?: Record<string, string>; db?: TestDatabase; clock?: Clock; chaves?: string[] } = {}): Promise<RunningApi> {
  const db = options.db ?? (await createTestDatabase('api_e2e'));
  const env: Record<string, string> = { MODE: 'local', PORT: '0', LOG_LEVEL: 'error', ...options.env };
  if (env.AUTH_TOKEN_KEY === undefined && env.DATA_DIR === undefined) env.AUTH_TOKEN_KEY = TEST_TOKEN_KEY;
  if (env.MODE === 'production') env.DATABASE_URL ??= db.url;
  // Production requires the payload-signing key and certificate, LOCATION_HOST and KAFKA_BROKERS; a test may still set its own (or '').
  if (env.MODE === 'production') for (const [name, value] of Object.entries({ ...testPayloadSigningEnv(), ...PRODUCTION_TEST_DEFAULTS(env.PORT) })) env[name] ??= value;
  const config = loadConfig(env);
  let client = { clientId: config.auth.localClientId, secret: config.auth.localClientSecret };
  if (config.mode === 'production') {
    await provisionAccess(db.url, { chaves: options.chaves ?? [TEST_PIX_KEY], client: TEST_CLIENT });
    client = TEST_CLIENT;
  }
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

  const tokenFor: RunningApi['tokenFor'] = (o = {}) => fetchToken(baseUrl, o.clientId ?? client.clientId, o.secret ?? client.secret, o.scope);
  // Fetched on first use, so a test that never calls the API through the harness spends nothing.
  let token: Promise<string> | undefined;
  const authorize = async (headers: Record<string, string>, options: SendOptions = {}) => {
    if (options.auth === false || Object.keys(headers).some((h) => h.toLowerCase() === 'authorization')) return headers;
    token ??= tokenFor();
    return { ...headers, authorization: `Bearer ${await token}` };
  };

  const send = async (method: string, path: string, payload: string | Buffer | undefined, headers: Record<string, string>) => {
    const response = await fetch(`${baseUrl}${config.basePath}${path}`, { method, body: payload, headers });
    const text = await response.text();
    let body: any = text;
    try {
      body = text ? JSON.parse(text) : undefined;
    } catch {
      /* not JSON: the validator will say so */
    }
    if (response.status === 401) {
      expectUnauthorizedProblem(body, response.headers);
      return { status: response.status, headers: response.headers, text, body };
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
    client,
    tokenFor,
    request: async (method, path, body, headers = {}, options) =>
      send(method, path, body === undefined ? undefined : JSON.stringify(body), await authorize(body === undefined ? headers : { 'content-type': 'application/json', ...headers }, options)),
    raw: async (method, path, raw, headers = { 'content-type': 'application/json' }, options) => send(method, path, raw, await authorize(headers, options)),
    async stop({ keepDatabase = false } = {}) {
      await app.close();
      if (!keepDatabase && !options.db) await db.drop();
    },
  };
}

/** The official contract has no 401: ours is exactly RFC 7807's about:blank, with a Bearer challenge. */
export function expectUnauthorizedProblem(body: any, headers: Headers): void {
  const problems: string[] = [];
  if (!/^application\/problem\+json/.test(headers.get('content-type') ?? '')) problems.push(`content-type ${headers.get('content-type')}`);
  if (!/^Bearer realm="pix"/.test(headers.get('www-authenticate') ?? '')) problems.push(`www-authenticate ${headers.get('www-authenticate')}`);
  const keys = Object.keys(body ?? {}).sort().join(',');
  if (keys !== 'correlationId,detail,status,title,type') problems.push(`members ${keys}`);
  if (body?.type !== 'about:blank' || body?.title !== 'Unauthorized' || body?.status !== 401 || typeof body?.detail !== 'string' || body?.correlationId !== headers.get('x-correlation-id'))
    problems.push('type/title/status/detail/correlationId');
  if (problems.length > 0) throw new Error(`401 is not the about:blank problem (${problems.join('; ')}): ${JSON.stringify(body)}`);
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
