import { LOCAL_KEY, newTxid, startApi, validCobV, type RunningApi } from '../support/api-harness';
import { createCharge, expectProblem, WHOLE_TIME, type TipoErro } from '../support/cobv-expect';
import { settledBatch } from '../support/lotecobv-expect';

// L3: every listing's inicio/fim as an RFC 3339 instant whose UTC form has no four-digit year.
// `9999-12-31T23:30:00-03:00` is 10000-01-01T02:30:00Z: as fim (an open end written in Brasília
// time) it is the last instant RFC 3339 states in UTC, the same filter; as inicio the window
// holds nothing the API can state, and the parameter is refused with the listing's own problem.
const PAST_9999 = encodeURIComponent('9999-12-31T23:30:00-03:00');
const BEFORE_0000 = encodeURIComponent('0000-01-01T00:00:00+01:00');
const LISTINGS: [string, string, TipoErro][] = [
  ['/cobv', 'cobs', 'CobVConsultaInvalida'],
  ['/lotecobv', 'lotes', 'LoteCobVConsultaInvalida'],
  ['/loc', 'loc', 'PayloadLocationConsultaInvalida'],
  ['/webhook', 'webhooks', 'WebhookConsultaInvalida'],
  ['/pix', 'pix', 'PixConsultaInvalida'],
];

describe('listings: inicio/fim past year 9999 or before 0000 in UTC (L3)', () => {
  let api: RunningApi;
  beforeAll(async () => {
    api = await startApi();
    await createCharge(api, newTxid('utc'), validCobV());
    expect((await api.request('PUT', '/lotecobv/77', { descricao: 'L3', cobsv: [{ txid: newTxid('utcl'), ...validCobV() }] })).status).toBe(202);
    await settledBatch(api, '77');
    expect((await api.request('PUT', `/webhook/${encodeURIComponent(LOCAL_KEY)}`, { webhookUrl: 'http://127.0.0.1:9/hook' })).status).toBe(200);
  });
  afterAll(async () => api?.stop());

  it.each(LISTINGS)('GET %s: an open fim past 9999 (and an inicio before 0000) lists what the whole period does and echoes the bounds applied, in UTC', async (path, items) => {
    const whole = await api.request('GET', `${path}?${WHOLE_TIME}`);
    const open = await api.request('GET', `${path}?inicio=${BEFORE_0000}&fim=${PAST_9999}`);
    expect([open.status, open.body[items]]).toEqual([200, whole.body[items]]);
    expect([open.body.parametros.inicio, open.body.parametros.fim]).toEqual(['0000-01-01T00:00:00.000Z', '9999-12-31T23:59:59.999Z']);
  });

  it.each(LISTINGS)('GET %s: an inicio past 9999 or a fim before 0000 is refused with the listing\'s own problem, naming it', async (path, _items, tipo) => {
    const late = await api.request('GET', `${path}?inicio=${PAST_9999}&fim=${encodeURIComponent('9999-12-31T23:40:00-03:00')}`);
    expectProblem(late, 400, tipo, 'inicio');
    expect(late.body.violacoes[0]).toEqual({
      razao: 'O parâmetro inicio é posterior a 9999-12-31T23:59:59.999Z, o último instante que a API representa em UTC.',
      propriedade: 'inicio',
      valor: '9999-12-31T23:30:00-03:00',
    });
    // The millisecond at or above inicio is what is compared: past the last one too.
    expectProblem(await api.request('GET', `${path}?inicio=9999-12-31T23:59:59.9995Z&fim=9999-12-31T23:59:59.9999Z`), 400, tipo, 'inicio');
    expectProblem(await api.request('GET', `${path}?inicio=${encodeURIComponent('0000-01-01T00:00:00+02:00')}&fim=${BEFORE_0000}`), 400, tipo, 'fim');
  });
});
