import fc from 'fast-check';
import { newTxid, startApi, validCobV, type ApiResponse, type RunningApi } from '../support/api-harness';
import { invalidBody, invalidTxid, validPatch } from '../support/cobv-invalid-arbitraries';
import { createCharge, expectNoCharge, readCharge } from '../support/cobv-expect';
import { assertProperty } from '../support/property';

const RUNS = 250;
const PER_RUN_MS = 5_000;
jest.setTimeout(180_000);

/** A valid PUT body that exercises every member the contract defines. */
const richBody = () => {
  const due = validCobV().calendario.dataDeVencimento;
  return validCobV({
    valor: {
      original: '100.00',
      multa: { modalidade: 2, valorPerc: '2.00' },
      juros: { modalidade: 2, valorPerc: '0.50' },
      abatimento: { modalidade: 1, valorPerc: '5.00' },
      desconto: { modalidade: 1, descontoDataFixa: [{ data: due, valorPerc: '10.00' }] },
    },
    infoAdicionais: [{ nome: 'Pedido', valor: '4711' }],
  });
};

/** 4xx, with a problem body (the harness has already checked it against the contract). */
function expectRefused(res: ApiResponse, context: unknown): void {
  if (res.status >= 400 && res.status < 500 && typeof res.body?.type === 'string') return;
  throw new Error(`expected a 4xx problem, got ${res.status} for ${JSON.stringify(context).slice(0, 600)}\n${res.text.slice(0, 800)}`);
}

/** Charges created from `since` on: a leak in one property never spills into another. */
/** One client sends thousands of generated requests as fast as it can: far past any rate limit (which has its own tests). */
const UNLIMITED = { env: { RATE_LIMIT_PER_SECOND: '0' } };

const createdSince = async (api: RunningApi, since: string) =>
  (await api.request('GET', `/cobv?inicio=${since}&fim=2100-01-01T00:00:00Z`)).body.parametros.paginacao.quantidadeTotalDeItens;

describe('cobv: generated invalid requests never change the store', () => {
  let api: RunningApi;
  beforeAll(async () => {
    api = await startApi(UNLIMITED);
  });
  afterAll(async () => api?.stop());

  /** A charge at revisao 1 (created from the rich body, then revised) that the property attacks. */
  async function victim() {
    const txid = newTxid('victim');
    await createCharge(api, txid, richBody()); // also proves the base body is valid
    expect((await api.request('PATCH', `/cobv/${txid}`, { solicitacaoPagador: 'revisada uma vez' })).status).toBe(200);
    const before = await readCharge(api, txid);
    expect(before.revisao).toBe(1);
    const since = new Date().toISOString();
    /** Same revision and content, nothing new created, and `neverCreated` still 404s. */
    const unchanged = async (neverCreated?: string) => {
      expect(await readCharge(api, txid)).toEqual(before);
      if (neverCreated) await expectNoCharge(api, neverCreated);
      expect(await createdSince(api, since)).toBe(0);
    };
    return { txid, unchanged };
  }

  it(`PUT with a certainly-invalid body (${RUNS} generated) is a 4xx problem, on a new txid and on an existing charge`, async () => {
    const existing = await victim();
    await assertProperty(
      fc.tuple(invalidBody(richBody, 'PUT'), fc.boolean()),
      async ([{ body, labels }, onExisting]) => {
        const txid = onExisting ? existing.txid : newTxid('p');
        expectRefused(await api.request('PUT', `/cobv/${txid}`, body), labels);
        await existing.unchanged(onExisting ? undefined : txid);
      },
      { numRuns: RUNS, timeout: PER_RUN_MS },
    );
  });

  it(`PUT of a valid body to a txid outside the contract (${RUNS} generated) is a 4xx problem and stores nothing`, async () => {
    const existing = await victim();
    await assertProperty(
      invalidTxid,
      async (txid) => {
        expectRefused(await api.request('PUT', `/cobv/${encodeURIComponent(txid)}`, richBody()), txid);
        await existing.unchanged();
      },
      { numRuns: RUNS, timeout: PER_RUN_MS },
    );
  });

  it(`PATCH with a certainly-invalid body (${RUNS} generated) on an existing charge is a 4xx problem and keeps its revision and content`, async () => {
    const existing = await victim();
    const arbitrary = validPatch(richBody()).chain((patch) => invalidBody(() => patch, 'PATCH'));
    await assertProperty(
      arbitrary,
      async ({ body, labels }) => {
        expectRefused(await api.request('PATCH', `/cobv/${existing.txid}`, body), labels);
        await existing.unchanged();
      },
      { numRuns: RUNS, timeout: PER_RUN_MS },
    );
  });

  it('PATCH with a certainly-invalid body on a never-created txid is a 4xx problem and creates nothing', async () => {
    const existing = await victim();
    await assertProperty(
      invalidBody(richBody, 'PATCH'),
      async ({ body, labels }) => {
        const txid = newTxid('nx');
        expectRefused(await api.request('PATCH', `/cobv/${txid}`, body), labels);
        await existing.unchanged(txid);
      },
      { numRuns: 100, timeout: PER_RUN_MS },
    );
  });
});

describe('cobv: arbitrary bodies never produce a 5xx', () => {
  let api: RunningApi;
  beforeAll(async () => {
    api = await startApi(UNLIMITED);
  });
  afterAll(async () => api?.stop());

  const noServerError = (res: ApiResponse, context: unknown) => {
    if (res.status >= 500) throw new Error(`5xx for ${JSON.stringify(context).slice(0, 600)}: ${res.status} ${res.text.slice(0, 600)}`);
  };

  it(`any JSON value as the whole PUT or PATCH body (${RUNS} generated) gets a contract answer below 500`, async () => {
    const victim = newTxid('json');
    const created = await createCharge(api, victim, validCobV());
    await assertProperty(
      fc.tuple(fc.jsonValue({ maxDepth: 6 }), fc.constantFrom('PUT', 'PATCH')),
      async ([json, method]) => {
        const fresh = newTxid('j');
        const res = await api.request(method, `/cobv/${method === 'PUT' ? fresh : victim}`, json);
        noServerError(res, json);
        // an object that happens to be a valid PATCH is possible in principle; anything else changes nothing
        if (method === 'PUT') {
          expect(res.status).toBeGreaterThanOrEqual(400);
          await expectNoCharge(api, fresh);
        } else if (res.status >= 400) {
          expect((await readCharge(api, victim)).revisao).toBe(created.revisao);
        }
      },
      { numRuns: RUNS, timeout: PER_RUN_MS },
    );
  });

  it(`any text sent as JSON (${RUNS} generated) gets a contract answer below 500`, async () => {
    await assertProperty(
      fc.oneof(fc.string(), fc.json().map((j) => j.slice(0, -1)), fc.string({ unit: 'binary' })),
      async (text) => {
        const txid = newTxid('t');
        const res = await api.raw('PUT', `/cobv/${txid}`, text);
        noServerError(res, text);
        expect(res.status).toBeGreaterThanOrEqual(400);
        await expectNoCharge(api, txid);
      },
      { numRuns: RUNS, timeout: PER_RUN_MS },
    );
  });
});
