import { randomUUID } from 'node:crypto';
import { businessDateOf, businessDayOnOrAfter, daysBetween } from '@pix/domain';
import { createResponseValidator } from '@pix/testing';
import { notificationIdFor } from '@pix/webhook-delivery';
import { LOCAL_KEY, newTxid, startApi, validCobV, type RunningApi } from '../support/api-harness';
import { newE2e, sleep } from '../support/cash-in-fixtures';
import { Receiver, type Received } from '../support/receiver';

// Local mode, in-process transport: the sandbox payer → settlement → notifier → webhook.
jest.setTimeout(60_000);

const HORARIO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
const WHOLE_TIME = 'inicio=2000-01-01T00:00:00Z&fim=2100-01-01T00:00:00Z';
const ROUND_KEYS = Array.from({ length: 20 }, () => randomUUID());
/** A key whose webhook changes many times (its stream is snapshotted). */
const BUSY_KEY = randomUUID();
const validator = createResponseValidator();
const DAY = 86_400_000;

describe('cash-in in local mode (sandbox payer, in-process transport)', () => {
  const clock = { offsetMs: 0, now: () => new Date(Date.now() + clock.offsetMs) };
  let api: RunningApi;
  let receiver: Receiver;
  const call = async (method: string, path: string, body?: unknown) => {
    const r = await fetch(`${api.baseUrl}${path}`, { method, headers: body === undefined ? {} : { 'content-type': 'application/json' }, body: body === undefined ? undefined : JSON.stringify(body) });
    const text = await r.text();
    return { status: r.status, body: text ? JSON.parse(text) : undefined };
  };
  const pay = (body: Record<string, unknown>) => call('POST', '/sandbox/cash-in', body);
  const charge = async (over: Record<string, unknown>, daysAhead = 10) => {
    const txid = newTxid('ci');
    const res = await api.request('PUT', `/cobv/${txid}`, validCobV(over, daysAhead));
    expect(res.status).toBe(201);
    return txid;
  };
  const webhook = async (chave: string, webhookUrl: string) => expect((await api.request('PUT', `/webhook/${chave}`, { webhookUrl })).status).toBe(200);
  /** Exactly `n` requests for the Pix, and still `n` after `settleMs` more. */
  const delivered = async (e2e: string, n = 1, settleMs = 1500): Promise<Received[]> => {
    await receiver.waitUntil(() => receiver.forEndToEndId(e2e).length >= n, 10_000, `${n} request(s) for ${e2e}`);
    await sleep(settleMs);
    expect(receiver.forEndToEndId(e2e)).toHaveLength(n);
    return receiver.forEndToEndId(e2e);
  };
  const pixOf = (r: Received) => r.json.pix[0];

  beforeAll(async () => {
    receiver = await Receiver.start();
    const env = { LOCAL_PIX_KEY: [LOCAL_KEY, ...ROUND_KEYS, BUSY_KEY].join(','), WEBHOOK_RETRY_SCHEDULE: Array(10).fill('200ms').join(','), WEBHOOK_TIMEOUT: '2s' };
    api = await startApi({ clock, env });
  });
  afterAll(async () => {
    await api?.stop();
    await receiver?.close();
  });

  it('pays a discounted charge for what it costs today and POSTs the official Pix to {webhookUrl}/pix once', async () => {
    await webhook(LOCAL_KEY, `${receiver.url}/hooks/empresa?conta=7`);
    const due = new Date(Date.now() + 10 * DAY).toISOString().slice(0, 10);
    const valor = { original: '200.00', abatimento: { modalidade: 1, valorPerc: '4.50' }, desconto: { modalidade: 1, descontoDataFixa: [{ data: due, valorPerc: '15.50' }] } };
    const txid = await charge({ valor });
    const paid = await pay({ txid, infoPagador: 'Fatura 7' });
    const componentesValor = { original: { valor: '200.00' }, abatimento: { valor: '4.50' }, desconto: { valor: '15.50' } };
    expect(paid).toEqual({
      status: 202,
      body: { versao: 1, endToEndId: expect.stringMatching(/^E[0-9a-zA-Z]{31}$/), horario: expect.stringMatching(HORARIO), infoPagador: 'Fatura 7', txid, chave: LOCAL_KEY, valor: '180.00', componentesValor },
    });
    const e2e: string = paid.body.endToEndId;
    const pix = { endToEndId: e2e, txid, chave: LOCAL_KEY, valor: '180.00', horario: paid.body.horario, infoPagador: 'Fatura 7', componentesValor };

    const [request] = await delivered(e2e);
    expect({ method: request.method, path: request.path, contentType: request.headers['content-type'] }).toEqual({ method: 'POST', path: '/hooks/empresa?conta=7/pix', contentType: 'application/json' });
    expect(request.json).toEqual({ pix: [pix] });
    expect(validator.validateSchema('Pix', pixOf(request)).errors).toEqual([]);
    expect(request.headers['webhook-id']).toBe(notificationIdFor(e2e));

    const cobv = await api.request('GET', `/cobv/${txid}`);
    expect(cobv.body).toMatchObject({ status: 'CONCLUIDA', pix: [pix] });
    expect(cobv.body.pix).toHaveLength(1);
    expect((await api.request('GET', `/pix/${e2e}`)).body).toEqual(pix);
    const listed = await api.request('GET', `/pix?${WHOLE_TIME}&txid=${txid}`);
    expect(listed.body.pix).toEqual([pix]);
    expect((await api.request('GET', `/pix?${WHOLE_TIME}&paginacao.itensPorPagina=1000`)).body.pix).toContainEqual(pix);
    // The txid filter takes 1 to 35 letters and digits (a static QR code's txid, ADR 4), exactly:
    // a prefix of the charge's txid finds nothing.
    const short = await api.request('GET', `/pix?${WHOLE_TIME}&txid=${txid.slice(0, 25)}`);
    expect([short.status, short.body.pix]).toEqual([200, []]);

    // The charge is paid: a second payment is refused and records nothing.
    const again = await pay({ txid });
    expect(again.status).toBe(400);
    expect(again.body).toMatchObject({ type: 'https://pix.bcb.gov.br/api/v2/error/CobVOperacaoInvalida', violacoes: [expect.objectContaining({ propriedade: 'txid' })] });
    expect((await api.request('GET', `/pix?${WHOLE_TIME}&txid=${txid}`)).body.pix).toHaveLength(1);
  });

  it('charges fine and interest on a late payment (clock three days past the due date)', async () => {
    const valor = { original: '100.00', multa: { modalidade: 2, valorPerc: '2.00' }, juros: { modalidade: 2, valorPerc: '1.00' } };
    // A due date on a weekend or holiday would move to the next business day (ADR 4): use a business day.
    const today = businessDateOf(new Date());
    const dueDate = businessDayOnOrAfter(today);
    const txid = await charge({ valor, calendario: { dataDeVencimento: dueDate, validadeAposVencimento: 30 } });
    clock.offsetMs = (daysBetween(today, dueDate) + 3) * DAY;
    const paid = await pay({ txid }).finally(() => (clock.offsetMs = 0));
    const componentesValor = { original: { valor: '100.00' }, multa: { valor: '2.00' }, juros: { valor: '3.00' } };
    expect(paid.status).toBe(202);
    expect(paid.body).toMatchObject({ txid, valor: '105.00', componentesValor });
    const [request] = await delivered(paid.body.endToEndId, 1, 0);
    expect(request.json).toEqual({ pix: [{ endToEndId: paid.body.endToEndId, txid, chave: LOCAL_KEY, valor: '105.00', horario: paid.body.horario, componentesValor }] });
    expect((await api.request('GET', `/cobv/${txid}`)).body).toMatchObject({ status: 'CONCLUIDA', pix: [pixOf(request)] });
  });

  it('records a Pix to the key without txid ({chave, valor}) but sends no notification', async () => {
    const paid = await pay({ chave: LOCAL_KEY, valor: '12.34' });
    expect(paid).toEqual({ status: 202, body: { versao: 1, endToEndId: expect.any(String), horario: expect.stringMatching(HORARIO), chave: LOCAL_KEY, valor: '12.34' } });
    const e2e = paid.body.endToEndId;
    expect((await api.request('GET', `/pix/${e2e}`)).body).toEqual({ endToEndId: e2e, chave: LOCAL_KEY, valor: '12.34', horario: paid.body.horario });
    expect((await api.request('GET', `/pix?${WHOLE_TIME}&txIdPresente=false&paginacao.itensPorPagina=1000`)).body.pix.map((p: any) => p.endToEndId)).toContain(e2e);
    await sleep(2000);
    expect(receiver.forEndToEndId(e2e)).toEqual([]);
    expect((await call('GET', `/notifier/notifications/${notificationIdFor(e2e)}`)).status).toBe(404);
    // A key that is not the receiver's is refused.
    expect((await pay({ chave: randomUUID(), valor: '1.00' })).status).toBe(400);
    // Its endToEndId is spent: paying a charge with it is refused, the charge stays open and
    // nobody is told of a payment settlement ignored (found by a black-box fuzz: 202 and a queued webhook).
    const txid = await charge({});
    const reused = await pay({ txid, endToEndId: e2e });
    expect(reused.status).toBe(400);
    expect(reused.body).toMatchObject({ type: expect.stringContaining('CobVOperacaoInvalida'), violacoes: [expect.objectContaining({ propriedade: 'endToEndId' })] });
    expect((await api.request('GET', `/cobv/${txid}`)).body).toMatchObject({ status: 'ATIVA' });
    expect((await call('GET', `/notifier/notifications/${notificationIdFor(e2e)}`)).status).toBe(404);
  });

  it('retries a failing receiver with the same webhook-id; operators see the attempts, stats and can resend', async () => {
    const e2e = newE2e();
    receiver.sequence((r) => pixOf(r)?.endToEndId === e2e, [500, 503]);
    const txid = await charge({});
    expect((await pay({ txid, endToEndId: e2e })).status).toBe(202);
    const requests = await delivered(e2e, 3);
    const id = notificationIdFor(e2e);
    expect(requests.map((r) => [r.headers['webhook-id'], r.status])).toEqual([[id, 500], [id, 503], [id, 200]]);
    expect(new Set(requests.map((r) => r.body)).size).toBe(1);

    const n = await call('GET', `/notifier/notifications/${id}`);
    expect(n.status).toBe(200);
    expect(n.body).toMatchObject({ id, endToEndId: e2e, chave: LOCAL_KEY, txid, status: 'delivered', pix: pixOf(requests[0]) });
    // The webhook's query (?conta=7, where receivers put tokens) was POSTed to but is not shown: as in the logs.
    const url = `${receiver.url}/hooks/empresa?…`;
    expect(n.body.attempts.map((a: any) => [a.attempt, a.url, a.statusCode, a.outcome])).toEqual([[1, url, 500, 'retry'], [2, url, 503, 'retry'], [3, url, 200, 'delivered']]);
    expect(JSON.stringify(n.body)).not.toContain('conta=7');

    const resent = await call('POST', '/notifier/resend', { ids: [id] });
    expect(resent).toEqual({ status: 202, body: { reenviadas: 1 } });
    const after = await delivered(e2e, 4, 500);
    expect(after[3].headers['webhook-id']).toBe(id);
    expect(after[3].body).toBe(requests[0].body);
    expect((await call('POST', '/notifier/resend', { endToEndIds: [e2e] })).body).toEqual({ reenviadas: 1 });
    await delivered(e2e, 5, 500);
    expect((await call('POST', '/notifier/resend', {})).status).toBe(400);
    expect((await call('GET', '/notifier/notifications/not-an-id')).status).toBe(404);
    // The receiver has read the 5th POST; the notifier records its answer right after (CI once read the stats in between).
    const settled = async () => (await call('GET', `/notifier/notifications/${id}`)).body.status === 'delivered' && (await call('GET', '/notifier/stats')).body.pending === 0;
    for (const deadline = Date.now() + 5000; !(await settled()) && Date.now() < deadline; ) await sleep(50);
    expect((await call('GET', `/notifier/notifications/${id}`)).body).toMatchObject({ status: 'delivered' });
    expect((await call('GET', '/notifier/stats')).body).toEqual({ pending: 0, dead: 0, inFlight: 0, oldestPendingAgeMs: null });
  });

  it('sends nothing more for a key once its webhook is deleted, even for a notification already pending', async () => {
    // Pending: the receiver is down when the Pix arrives, so the notification waits for a retry.
    await receiver.down();
    const e2e = newE2e();
    const txid = await charge({});
    expect((await pay({ txid, endToEndId: e2e })).status).toBe(202);
    const id = notificationIdFor(e2e);
    for (const deadline = Date.now() + 5000; !((await call('GET', `/notifier/notifications/${id}`)).body?.attemptCount >= 1); await sleep(50))
      if (Date.now() > deadline) throw new Error('no delivery attempt while the receiver was down');
    const stats = await call('GET', '/notifier/stats');
    expect(stats.body).toMatchObject({ pending: 1, dead: 0, oldestPendingAgeMs: expect.any(Number) });
    expect((await api.request('DELETE', `/webhook/${LOCAL_KEY}`)).status).toBe(204);
    await receiver.up();
    await sleep(2000);
    expect(receiver.forEndToEndId(e2e)).toEqual([]);
    expect((await call('GET', `/notifier/notifications/${id}`)).body).toMatchObject({ status: 'cancelled', reason: expect.stringContaining('no webhook') });

    // A Pix arriving after the removal is settled, but no notification is even queued.
    const later = await pay({ txid: await charge({}) });
    await sleep(2000);
    expect(receiver.forEndToEndId(later.body.endToEndId)).toEqual([]);
    expect((await call('GET', `/notifier/notifications/${notificationIdFor(later.body.endToEndId)}`)).status).toBe(404);
    expect((await api.request('GET', `/cobv/${later.body.txid}`)).body.status).toBe('CONCLUIDA');
  });

  it('never misses the first cash-in right after a registration (20 rounds, one key each)', async () => {
    const rounds: { e2e: string; path: string }[] = [];
    for (const [i, chave] of ROUND_KEYS.entries()) {
      await webhook(chave, `${receiver.url}/round/${i}`);
      const paid = await pay({ txid: await charge({ chave }) });
      expect(paid.status).toBe(202);
      rounds.push({ e2e: paid.body.endToEndId, path: `/round/${i}/pix` });
    }
    await receiver.waitUntil(() => rounds.every((r) => receiver.forEndToEndId(r.e2e).length > 0), 15_000, 'one request per round');
    await sleep(1000);
    expect(rounds.map((r) => receiver.forEndToEndId(r.e2e).map((q) => q.path))).toEqual(rounds.map((r) => [r.path]));
  });

  it('a key whose webhook changed 250 times: its stream is read from a snapshot, and the Pix goes to the latest URL only', async () => {
    for (let i = 0; i < 250; i++) await webhook(BUSY_KEY, `${receiver.url}/busy/${i}`);
    const paid = await pay({ txid: await charge({ chave: BUSY_KEY }) });
    expect(paid.status).toBe(202);
    expect((await delivered(paid.body.endToEndId)).map((r) => r.path)).toEqual(['/busy/249/pix']);
    expect((await api.request('GET', `/webhook/${BUSY_KEY}`)).body.webhookUrl).toBe(`${receiver.url}/busy/249`);
    const { Pool } = await import('pg');
    const pool = new Pool({ connectionString: api.db.url, max: 1 });
    try {
      // Taken at a revision the stream holds (the registrations' writer and the notifier keep the later one).
      const snapshot = await pool.query(`SELECT s.revision::int FROM es_snapshots s JOIN es_events e ON e.stream_id = s.stream_id AND e.stream_revision = s.revision AND e.event_id = s.event_id WHERE s.stream_id = $1`, [`webhook-${BUSY_KEY}`]);
      expect(snapshot.rows).toHaveLength(1);
      expect(snapshot.rows[0].revision).toBeGreaterThanOrEqual(199);
    } finally {
      await pool.end();
    }
  });
});
