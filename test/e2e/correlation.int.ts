import { notificationIdFor } from '@pix/webhook-delivery';
import { LOCAL_KEY, newTxid, startApi, validCobV, type RunningApi } from '../support/api-harness';
import { Receiver } from '../support/receiver';

// The real API in this process with the real logger, its output captured: every line written
// while serving a request carries that request's correlation id, and one access line per request
// says what happened without headers, query strings or bodies.

describe('correlation id on every log line', () => {
  let api: RunningApi;
  const lines: string[] = [];
  const originals = { out: process.stdout.write.bind(process.stdout), err: process.stderr.write.bind(process.stderr) };
  const capture = (original: typeof originals.out) =>
    ((chunk: unknown, ...rest: unknown[]) => {
      const text = String(chunk);
      // Nest's lines are ours to read; anything else (jest's own output) passes through.
      if (/\[Nest\]|\[cid=/.test(text)) {
        lines.push(...text.replace(/\x1b\[[0-9;]*m/g, '').split('\n').filter(Boolean));
        return true;
      }
      return (original as (...a: unknown[]) => boolean)(chunk, ...rest);
    }) as typeof process.stdout.write;

  beforeAll(async () => {
    api = await startApi({ env: { LOG_LEVEL: 'info' } });
    process.stdout.write = capture(originals.out);
    process.stderr.write = capture(originals.err);
  });
  afterAll(async () => {
    process.stdout.write = originals.out;
    process.stderr.write = originals.err;
    await api?.stop();
  });

  /** The access line is written once the answer is out: wait for it briefly. */
  async function linesWith(needle: string, count = 1): Promise<string[]> {
    for (let i = 0; i < 100; i++) {
      const found = lines.filter((l) => l.includes(needle));
      if (found.length >= count) return found;
      await new Promise((r) => setTimeout(r, 20));
    }
    return lines.filter((l) => l.includes(needle));
  }

  it("writes one access line per request with the caller's x-correlation-id, method, path, status and duration", async () => {
    const cid = `corr-${newTxid()}`;
    const txid = newTxid('c');
    const res = await api.request('GET', `/cobv/${txid}`, undefined, { 'x-correlation-id': cid });
    expect(res.headers.get('x-correlation-id')).toBe(cid);
    const mine = await linesWith(`[cid=${cid}]`);
    expect(mine).toHaveLength(1);
    expect(mine[0]).toMatch(new RegExp(`\\[Access\\] \\[cid=${cid}\\] GET /v2/cobv/${txid} ${res.status} \\d+\\.\\dms( client=[A-Za-z0-9._-]+)?$`));
  });

  it('names the authenticated client on its access line', async () => {
    const cid = `corr-${newTxid()}`;
    const res = await api.request('PUT', `/cobv/${newTxid('a')}`, validCobV(), { 'x-correlation-id': cid });
    expect(res.status).toBe(201);
    const [line] = await linesWith(`[cid=${cid}]`);
    expect(line.endsWith(` 201 ${/\d+\.\dms/.exec(line)?.[0]} client=${api.client.clientId}`)).toBe(true);
  });

  it('generates an id when the caller sends none (or an unusable one) and logs that one', async () => {
    for (const given of [undefined, 'bad id with spaces', 'x'.repeat(101)]) {
      const res = await fetch(`${api.baseUrl}/v2/cobv/${newTxid('g')}`, { headers: given ? { 'x-correlation-id': given } : {} });
      const cid = res.headers.get('x-correlation-id');
      expect(cid).toMatch(/^[0-9a-f-]{36}$/);
      expect(await linesWith(`[cid=${cid}]`)).toHaveLength(1);
    }
  });

  it('never logs the Authorization header, the query string or the body', async () => {
    const cid = `corr-${newTxid()}`;
    const token = await api.tokenFor();
    const secretName = `Nome ${newTxid('n')}`;
    await fetch(`${api.baseUrl}/v2/cobv?inicio=2020-01-01T00:00:00Z&fim=2030-01-01T00:00:00Z&cpf=98765432100`, { headers: { authorization: `Bearer ${token}`, 'x-correlation-id': cid } });
    await fetch(`${api.baseUrl}/v2/cobv/${newTxid('b')}`, {
      method: 'PUT',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', 'x-correlation-id': cid },
      body: JSON.stringify(validCobV({ devedor: { cpf: '98765432100', nome: secretName } })),
    });
    // The token endpoint: its secret travels in the body here.
    const form = new URLSearchParams({ grant_type: 'client_credentials', client_id: api.client.clientId, client_secret: api.client.secret });
    expect((await fetch(`${api.baseUrl}/oauth/token`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded', 'x-correlation-id': cid }, body: form })).status).toBe(200);
    const mine = await linesWith(`[cid=${cid}]`, 3);
    expect(mine.map((l) => / (GET|PUT|POST) \S+ (\d{3}) /.exec(l)?.slice(1, 3).join(' '))).toEqual(['GET 200', 'PUT 201', 'POST 200']);
    expect(mine[0]).toContain(' GET /v2/cobv 200 ');
    expect(mine[2]).toContain(' POST /oauth/token 200 ');
    const all = lines.join('\n');
    for (const secret of [token, api.client.secret, secretName, '98765432100', 'inicio=']) expect(all).not.toContain(secret);
  });

  it('marks lines written by the work a request causes, not only the access line (sandbox payment settles the charge)', async () => {
    const txid = newTxid('p');
    expect((await api.request('PUT', `/cobv/${txid}`, validCobV({ chave: LOCAL_KEY }))).status).toBe(201);
    const cid = `corr-${newTxid()}`;
    const paid = await fetch(`${api.baseUrl}/sandbox/cash-in`, { method: 'POST', headers: { 'content-type': 'application/json', 'x-correlation-id': cid }, body: JSON.stringify({ txid }) });
    expect(paid.status).toBe(202);
    const settled = await linesWith(`${txid} CONCLUIDA`);
    expect(settled).toHaveLength(1);
    expect(settled[0]).toContain(`[cid=${cid}]`);
  });

  it("carries the payer request's id to the notifier's delivery line (through the outbox)", async () => {
    const receiver = await Receiver.start();
    try {
      expect((await api.request('PUT', `/webhook/${LOCAL_KEY}`, { webhookUrl: `${receiver.url}/hook` })).status).toBe(200);
      const txid = newTxid('n');
      expect((await api.request('PUT', `/cobv/${txid}`, validCobV({ chave: LOCAL_KEY }))).status).toBe(201);
      const cid = `corr-${newTxid()}`;
      const paid = await fetch(`${api.baseUrl}/sandbox/cash-in`, { method: 'POST', headers: { 'content-type': 'application/json', 'x-correlation-id': cid }, body: JSON.stringify({ txid }) });
      expect(paid.status).toBe(202);
      const { endToEndId } = (await paid.json()) as { endToEndId: string };
      // Only lines naming an id are captured here (pretty format): without it the line is not found at all.
      const delivered = await linesWith(`webhook ${notificationIdFor(endToEndId)} attempt 1 `);
      expect(delivered).toEqual([expect.stringContaining(`[cid=${cid}]`)]);
    } finally {
      await api.request('DELETE', `/webhook/${LOCAL_KEY}`);
      await receiver.close();
    }
  });
});
