import { spawnSync } from 'node:child_process';
import http from 'node:http';
import path from 'node:path';
import { createTestDatabase, testPool, type TestDatabase } from '@pix/testing';
import { ensureBuilt, freePort, startApiProcess, type ApiProcess } from '../support/api-process';
import { newTxid, validCobV } from '../support/api-harness';

// SIGTERM as a load balancer (or Kubernetes) needs it: for SHUTDOWN_DELAY the port stays open,
// readiness answers 503 and every other request is served (its answer closing the connection, so
// no idle keep-alive socket is reset under a client); only then does the HTTP server close and drain.
jest.setTimeout(120_000);

const DELAY_MS = 1500;
const wait = (ms: number) => new Promise((r) => setTimeout(r, ms));

interface Answer {
  status: number;
  body: any;
  connection?: string;
  reusedSocket: boolean;
}

/** One request over `agent` (a keep-alive agent whose socket is reused, or none: a new connection). */
function send(url: string, options: { method?: string; token?: string; body?: unknown; agent?: http.Agent }): Promise<Answer> {
  const body = options.body === undefined ? undefined : JSON.stringify(options.body);
  const headers: Record<string, string> = { ...(options.token ? { authorization: `Bearer ${options.token}` } : {}), ...(body ? { 'content-type': 'application/json' } : {}) };
  return new Promise((resolve, reject) => {
    const req = http.request(url, { method: options.method ?? 'GET', headers, agent: options.agent ?? false }, (res) => {
      let text = '';
      res.setEncoding('utf8').on('data', (c) => (text += c));
      res.on('end', () => resolve({ status: res.statusCode!, body: text ? JSON.parse(text) : undefined, connection: res.headers.connection, reusedSocket: req.reusedSocket }));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end(body);
  });
}

const putCobV = (api: ApiProcess, txid: string, agent?: http.Agent) => send(`${api.base}/cobv/${txid}`, { method: 'PUT', token: api.token, body: validCobV(), agent });
const exitOf = (api: ApiProcess) => new Promise<number | null>((resolve) => (api.child.exitCode !== null ? resolve(api.child.exitCode) : api.child.once('exit', (code) => resolve(code))));

describe('shutdown delay (SHUTDOWN_DELAY)', () => {
  let db: TestDatabase;
  let api: ApiProcess | undefined;

  beforeAll(async () => {
    db = await createTestDatabase('shutdown_delay');
  }, 60_000);
  afterEach(async () => {
    await api?.kill('SIGKILL');
    api = undefined;
  });
  afterAll(async () => {
    await db?.drop();
  });

  const stored = async (txids: string[]) => {
    const pool = testPool(db.url, 1);
    try {
      const { rows } = await pool.query<{ txid: string }>(`SELECT split_part(stream_id, '/', 2) AS txid FROM es_events WHERE event_type = 'CobVCriada' AND split_part(stream_id, '/', 2) = ANY($1)`, [txids]);
      return rows.map((r) => r.txid).sort();
    } finally {
      await pool.end();
    }
  };

  it('during the delay readiness is 503 while PUTs on an open keep-alive connection and on a new one get their 201; then it exits 0', async () => {
    api = await startApiProcess(db.url, await freePort(), { SHUTDOWN_DELAY: `${DELAY_MS}ms` });
    const origin = api.base.replace(/\/v2$/, '');
    expect((await send(`${origin}/health/ready`, {})).status).toBe(200);
    const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
    const txids = [newTxid(), newTxid(), newTxid()];
    const before = await putCobV(api, txids[0], agent);
    expect([before.status, before.connection]).toEqual([201, 'keep-alive']);

    const exited = exitOf(api);
    const signalled = Date.now();
    api.child.kill('SIGTERM');
    // The signal is handled within a few ms; readiness turns 503 and the port stays open.
    let ready = await send(`${origin}/health/ready`, {});
    for (const deadline = signalled + DELAY_MS / 2; ready.status === 200 && Date.now() < deadline; await wait(20)) ready = await send(`${origin}/health/ready`, {});
    expect([ready.status, ready.body]).toEqual([503, { status: 'shutting down' }]);
    expect((await send(`${origin}/health/live`, {})).status).toBe(200);

    // The idle keep-alive socket was left open: a request on it is served, and told to reconnect.
    const reused = await putCobV(api, txids[1], agent);
    expect([reused.status, reused.reusedSocket, reused.connection]).toEqual([201, true, 'close']);
    const fresh = await putCobV(api, txids[2]);
    expect([fresh.status, fresh.reusedSocket, fresh.connection]).toEqual([201, false, 'close']);
    expect(Date.now() - signalled).toBeLessThan(DELAY_MS);

    expect(await exited).toBe(0);
    expect(Date.now() - signalled).toBeGreaterThanOrEqual(DELAY_MS);
    expect(api.output()).toMatch(/SIGTERM: shutting down: readiness answers 503, requests still served for 1500 ms/);
    agent.destroy();
    expect(await stored(txids)).toEqual([...txids].sort());
  });

  it('under load on keep-alive connections no client sees a reset or a refusal before the delay ends, and every 201 is stored', async () => {
    api = await startApiProcess(db.url, await freePort(), { SHUTDOWN_DELAY: `${DELAY_MS}ms` });
    const running = api;
    const exited = exitOf(running);
    let signalled = Infinity;
    let stop = false;
    const created: string[] = [];
    const failures: { code: string; at: number }[] = [];
    const statuses = new Map<number, number>();
    const client = async () => {
      const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
      // Each client runs until its first failure once the port has closed (or the process is gone).
      while (!stop) {
        const txid = newTxid();
        try {
          const r = await putCobV(running, txid, agent);
          statuses.set(r.status, (statuses.get(r.status) ?? 0) + 1);
          if (r.status === 201) created.push(txid);
        } catch (error) {
          failures.push({ code: (error as NodeJS.ErrnoException).code ?? String(error), at: Date.now() });
          if (Date.now() >= signalled) break;
        }
      }
      agent.destroy();
    };
    const clients = Array.from({ length: 20 }, client);
    await wait(800);
    const beforeSignal = created.length;
    signalled = Date.now();
    running.child.kill('SIGTERM');
    expect(await exited).toBe(0);
    stop = true;
    await Promise.all(clients);

    expect(beforeSignal).toBeGreaterThan(0);
    // Serving went on through the delay: requests answered after the signal, none failed before its end.
    expect(created.length).toBeGreaterThan(beforeSignal);
    expect(failures.filter((f) => f.at < signalled + DELAY_MS)).toEqual([]);
    expect([...statuses.keys()].filter((s) => s !== 201 && s !== 503)).toEqual([]);
    expect(await stored(created)).toEqual([...created].sort());
  });

  it('an invalid SHUTDOWN_DELAY is named at start-up and the process exits 2', () => {
    ensureBuilt();
    const root = path.resolve(__dirname, '../..');
    const run = spawnSync(process.execPath, [path.join(root, 'tools/launch.js'), 'apps/api/src/main.js'], {
      cwd: root,
      // Production mode and a database nobody listens on: even unvalidated, nothing would start.
      env: { PATH: process.env.PATH, MODE: 'production', DATABASE_URL: 'postgres://postgres@127.0.0.1:1/none', SHUTDOWN_DELAY: 'soon' },
      encoding: 'utf8',
      timeout: 30_000,
    });
    expect(run.status).toBe(2);
    expect(run.stderr).toContain('SHUTDOWN_DELAY must be a duration from 0 to 10m (e.g. "5s", "500ms"), got "soon"');
  });
});
