import { chmodSync, existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { loadConfig } from '../../apps/api/src/config/config';
import { runtimeFile, startDatabase } from '../../apps/api/src/infrastructure/database';
import { createServer, type Server } from 'node:http';
import { pixDecider } from '@pix/domain';
import { handleCommand, type EventStore } from '@pix/event-store';
import { EVENT_STORE } from '../../apps/api/src/infrastructure/tokens';
import { createApiApp } from '../../apps/api/src/server';
import { pixStream } from '../../apps/api/src/shared/streams';
import { LOCAL_KEY, newTxid, validCobV } from '../support/api-harness';
import { cashIn } from '../support/cash-in-fixtures';
import { fetchToken } from '../support/api-process';

jest.setTimeout(60_000);

/** Local mode as `npm start` runs it: embedded PostgreSQL in DATA_DIR, data kept across restarts. */
describe('local mode', () => {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'pix-local-'));
  chmodSync(dataDir, 0o755); // as root, the embedded server runs as `postgres`
  afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

  async function boot() {
    const config = loadConfig({ MODE: 'local', DATA_DIR: dataDir, PORT: '0', LOG_LEVEL: 'error' });
    const database = await startDatabase(config, () => undefined);
    const app = await createApiApp({ config, databaseUrl: database.url });
    await app.listen({ port: 0, host: '127.0.0.1' });
    const origin = `http://127.0.0.1:${(app.getHttpServer().address() as { port: number }).port}`;
    const base = `${origin}/v2`;
    return { app, base, origin, stop: async () => (await app.close(), await database.stop()) };
  }

  it('keeps every charge across a restart and tells operator commands where its database is', async () => {
    const first = await boot();
    // The seeded local client; its token still works after the restart (the key is kept in DATA_DIR).
    const authorization = `Bearer ${await fetchToken(first.origin, 'sandbox', 'sandbox-secret')}`;
    const txids = [newTxid('a'), newTxid('b'), newTxid('c')];
    const created: unknown[] = [];
    for (const txid of txids) {
      const r = await fetch(`${first.base}/cobv/${txid}`, { method: 'PUT', headers: { 'content-type': 'application/json', authorization }, body: JSON.stringify(validCobV()) });
      expect(r.status).toBe(201);
      created.push(await r.json());
    }
    expect(existsSync(runtimeFile(dataDir))).toBe(true);
    expect(JSON.parse(readFileSync(runtimeFile(dataDir), 'utf8')).databaseUrl).toMatch(/^postgres:\/\/postgres:[A-Za-z0-9_-]{32}@127\.0\.0\.1:\d+\/postgres$/);
    await first.stop();

    const second = await boot();
    try {
      for (const [i, txid] of txids.entries()) {
        const r = await fetch(`${second.base}/cobv/${txid}`, { headers: { authorization } });
        expect(r.status).toBe(200);
        expect(await r.json()).toEqual(created[i]);
      }
    } finally {
      await second.stop();
    }
  });

  it('finishes at start-up a cash-in a crash cut short after its Pix was recorded: the charge settles and the webhook goes', async () => {
    const posts: string[] = [];
    const receiver: Server = createServer((req, res) => {
      let body = '';
      req.on('data', (c) => (body += c));
      req.on('end', () => (posts.push(body), res.end('ok')));
    });
    await new Promise<void>((ok) => receiver.listen(0, '127.0.0.1', ok));
    const hook = `http://127.0.0.1:${(receiver.address() as { port: number }).port}/hook`;
    const first = await boot();
    const authorization = `Bearer ${await fetchToken(first.origin, 'sandbox', 'sandbox-secret')}`;
    const headers = { 'content-type': 'application/json', authorization };
    const txid = newTxid('crash');
    try {
      expect((await fetch(`${first.base}/webhook/${LOCAL_KEY}`, { method: 'PUT', headers, body: JSON.stringify({ webhookUrl: hook }) })).status).toBe(200);
      expect((await fetch(`${first.base}/cobv/${txid}`, { method: 'PUT', headers, body: JSON.stringify(validCobV()) })).status).toBe(201);
      // The in-process bus's first step only (the Pix recorded), as when the process died right after it.
      const { versao: _v, ...pix } = cashIn(txid, LOCAL_KEY);
      await handleCommand(first.app.get<EventStore>(EVENT_STORE), pixStream(pix.endToEndId), pixDecider, () => ({ type: 'RegistrarPix' as const, pix, recebedorId: 'local', now: new Date() }), { assumeNew: { conditions: [] } });
      expect(((await (await fetch(`${first.base}/cobv/${txid}`, { headers })).json()) as { status: string }).status).toBe('ATIVA');
      await first.stop();

      const second = await boot();
      try {
        const charge = await (await fetch(`${second.base}/cobv/${txid}`, { headers })).json();
        expect(charge).toMatchObject({ status: 'CONCLUIDA', pix: [{ endToEndId: pix.endToEndId }] });
        for (const deadline = Date.now() + 15_000; !posts.some((p) => p.includes(pix.endToEndId)) && Date.now() < deadline; ) await new Promise((r) => setTimeout(r, 100));
        expect(posts.filter((p) => p.includes(pix.endToEndId))).toHaveLength(1);
      } finally {
        await second.stop();
      }
    } finally {
      await new Promise((ok) => receiver.close(ok));
    }
  });
});
