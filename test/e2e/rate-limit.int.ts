import { LOCAL_RECEBEDOR_ID } from '@pix/domain';
import type { EventStore } from '@pix/event-store';
import { createClient } from '../../apps/api/src/access/admin/operations';
import { EVENT_STORE } from '../../apps/api/src/infrastructure/tokens';
import { newTxid, startApi, type RunningApi } from '../support/api-harness';

// A real API with a tiny limit (2 per second, bursts of 3). Requests go out with fetch, not the
// harness's validating client: 429 is not in the official contract (its body is RFC 7807's
// about:blank). Every request comes from 127.0.0.1: without a token they share that address's
// bucket; with one, each client has its own.

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('rate limits', () => {
  let api: RunningApi;
  beforeAll(async () => {
    api = await startApi({ env: { RATE_LIMIT_PER_SECOND: '2', RATE_LIMIT_BURST: '3' } });
  });
  afterAll(async () => api?.stop());
  // Each test starts with a full bucket (3 tokens at 2 per second).
  beforeEach(() => sleep(1600));

  const get = (path: string, headers: Record<string, string> = {}) => fetch(`${api.baseUrl}${path}`, { headers });
  const burst = (n: number, send: () => Promise<Response>) => Promise.all(Array.from({ length: n }, send));

  it('answers 429 with Retry-After and a problem body once the burst is spent', async () => {
    const answers = await burst(8, () => get(`/v2/cobv/${newTxid('r')}`));
    const limited = answers.filter((r) => r.status === 429);
    // 3 from the burst, plus at most one refilled token while they were sent.
    expect(answers.length - limited.length).toBeGreaterThanOrEqual(3);
    expect(answers.length - limited.length).toBeLessThanOrEqual(4);
    const res = limited[0];
    expect(res.headers.get('retry-after')).toMatch(/^[1-9]\d*$/);
    expect(res.headers.get('content-type')).toMatch(/^application\/problem\+json/);
    const cid = res.headers.get('x-correlation-id');
    expect(await res.json()).toEqual({ type: 'about:blank', title: 'Too Many Requests', status: 429, detail: expect.any(String), correlationId: cid });
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
  });

  it('recovers after waiting Retry-After', async () => {
    const answers = await burst(6, () => get(`/v2/cobv/${newTxid('w')}`));
    const limited = answers.find((r) => r.status === 429);
    expect(limited).toBeDefined();
    const wait = Number(limited!.headers.get('retry-after'));
    expect((await get(`/v2/cobv/${newTxid('x')}`)).status).toBe(429);
    await sleep(wait * 1000);
    expect((await get(`/v2/cobv/${newTxid('y')}`)).status).not.toBe(429);
  });

  it('limits the token endpoint (unauthenticated floods) by address too', async () => {
    const answers = await burst(8, () => fetch(`${api.baseUrl}/oauth/token`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' }));
    expect(answers.filter((r) => r.status === 429).length).toBeGreaterThanOrEqual(4);
  });

  it('limits each client on its own: another client, and the address, are unaffected', async () => {
    const other = await createClient({ store: api.app.get<symbol, EventStore>(EVENT_STORE) }, { recebedorId: LOCAL_RECEBEDOR_ID, clientId: 'rate-other', secret: 'rate-other-secret' });
    // Two token requests spend two of the address's three tokens; wait for them to come back.
    const [mine, theirs] = [await api.tokenFor(), await api.tokenFor({ clientId: other.clientId, secret: other.secret })];
    await sleep(1600);
    const bearer = (token: string) => ({ authorization: `Bearer ${token}` });
    const answers = await burst(8, () => get(`/v2/cobv/${newTxid('m')}`, bearer(mine)));
    const limited = answers.filter((r) => r.status === 429);
    expect(answers.length - limited.length).toBeGreaterThanOrEqual(3);
    expect(answers.length - limited.length).toBeLessThanOrEqual(4);
    expect(answers.filter((r) => r.status !== 429).map((r) => r.status)).toEqual(Array(answers.length - limited.length).fill(404));
    expect(await limited[0].json()).toMatchObject({ type: 'about:blank', status: 429 });
    // Same address, other client: its own full bucket.
    expect((await burst(3, () => get(`/v2/cobv/${newTxid('o')}`, bearer(theirs)))).map((r) => r.status)).toEqual([404, 404, 404]);
    // The first client's requests did not spend the address's tokens either.
    expect((await burst(3, () => get(`/v2/cobv/${newTxid('u')}`))).map((r) => r.status)).toEqual([401, 401, 401]);
  });

  it('never limits /health', async () => {
    await burst(6, () => get(`/v2/cobv/${newTxid('h')}`));
    expect((await get(`/v2/cobv/${newTxid('z')}`)).status).toBe(429);
    const health = await burst(20, () => get('/health'));
    expect(health.map((r) => r.status)).toEqual(Array(20).fill(200));
  });
});

describe('rate limits off', () => {
  it('RATE_LIMIT_PER_SECOND=0 admits any burst', async () => {
    const api = await startApi({ env: { RATE_LIMIT_PER_SECOND: '0', RATE_LIMIT_BURST: '1' } });
    try {
      const answers = await Promise.all(Array.from({ length: 30 }, () => fetch(`${api.baseUrl}/v2/cobv/${newTxid('o')}`)));
      expect(answers.filter((r) => r.status === 429)).toHaveLength(0);
    } finally {
      await api.stop();
    }
  });
});
