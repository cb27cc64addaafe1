import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { startApi, type RunningApi } from '../support/api-harness';

// `npm run admin` (the built command, as an operator runs it) beside a running API on the same
// database: what it appends reaches the API's read models, and a key it takes from a receiver
// takes the key's notifications with it. Needs `npm run build` (npm test builds first).
jest.setTimeout(60_000);

const ROOT = path.resolve(__dirname, '../..');
const KEY = 'pagamentos@lojab.example.com';

describe('admin key remove beside a running API', () => {
  let api: RunningApi;
  const admin = (...args: string[]) => {
    const run = spawnSync(process.execPath, ['tools/launch.js', 'apps/api/src/admin.js', ...args], { cwd: ROOT, env: { ...process.env, DATABASE_URL: api.db.url }, encoding: 'utf8', timeout: 30_000 });
    // stderr says which store the command used (and nothing else); the test database URL has no password to mask.
    expect({ args, status: run.status, stderr: run.stderr }).toEqual({ args, status: 0, stderr: `admin: using PostgreSQL at DATABASE_URL ${new URL(api.db.url).toString()}\n` });
    return run.stdout;
  };

  beforeAll(async () => {
    api = await startApi();
  });
  afterAll(async () => api?.stop());

  it("drops the key's webhook from GET /webhook at once and retires its notifications", async () => {
    admin('receiver', 'create', '--id', 'lojab', '--name', 'Loja B SA', '--cnpj', '12ABC34501DE35', '--street', 'Rua B, 2', '--city', 'Campinas', '--uf', 'SP', '--cep', '13010000', '--key', KEY);
    const created = admin('client', 'create', '--receiver', 'lojab');
    const clientId = /client_id:\s+(\S+)/.exec(created)![1];
    const secret = /client_secret:\s+(\S+)/.exec(created)![1];
    const authorization = `Bearer ${await api.tokenFor({ clientId, secret })}`;
    expect((await api.request('PUT', `/webhook/${KEY}`, { webhookUrl: 'http://localhost:9/lojab' }, { authorization })).status).toBe(200);
    const list = () => api.request('GET', '/webhook?inicio=2000-01-01T00:00:00Z&fim=2100-01-01T00:00:00Z', undefined, { authorization });
    expect((await list()).body.webhooks.map((w: { chave: string }) => w.chave)).toEqual([KEY]);

    const removed = admin('key', 'remove', '--receiver', 'lojab', '--key', KEY);
    expect(removed).toContain(`unlinked ${KEY}`);
    expect(removed).toContain('its notifications retired: 0 pending cancelled, none can be resent');
    // The read model the list serves was written by the command's own append (it listed the webhook for good).
    expect((await list()).body).toMatchObject({ parametros: { paginacao: { quantidadeTotalDeItens: 0 } }, webhooks: [] });
  });
});
