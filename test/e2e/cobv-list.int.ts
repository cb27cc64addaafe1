import { newTxid, startApi, validCobV, type RunningApi } from '../support/api-harness';
import { cnpjFrom, cpfFrom, createCharge, readCharge, WHOLE_TIME } from '../support/cobv-expect';

const REMOVIDA = 'REMOVIDA_PELO_USUARIO_RECEBEDOR';
const ALNUM_CNPJ = '12ABC34501DE35';
const CPF_A = cpfFrom(11);
const CPF_B = cpfFrom(22);
const CNPJ_N = cnpjFrom(7);

/** Charge i of the data set: created at T0 + i minutes, debtor by range, every 6th removed. */
const T0 = Date.parse('2025-06-01T12:00:00.000Z');
const N = 25;
const at = (i: number) => new Date(T0 + i * 60_000).toISOString();
const debtorOf = (i: number) =>
  i < 10 ? { cpf: CPF_A, nome: 'Ana' } : i < 15 ? { cnpj: ALNUM_CNPJ, nome: 'Alfa SA' } : i < 20 ? { cnpj: CNPJ_N, nome: 'Beta SA' } : { cpf: CPF_B, nome: 'Bia' };
const removed = (i: number) => i % 6 === 0;
const range = (from: number, to: number) => Array.from({ length: to - from }, (_, k) => from + k);

describe('GET /cobv filters and pagination', () => {
  let api: RunningApi;
  let now = new Date(T0);
  const txids: string[] = [];
  const list = async (query: string) => {
    const res = await api.request('GET', `/cobv?${query}`);
    if (res.status !== 200) throw new Error(`GET /cobv?${query} → ${res.status}: ${res.text.slice(0, 600)}`);
    return res.body;
  };
  const indexesOf = (body: any) => body.cobs.map((c: any) => txids.indexOf(c.txid)).sort((a: number, b: number) => a - b);

  beforeAll(async () => {
    api = await startApi({ clock: { now: () => now } });
    for (const i of range(0, N)) {
      now = new Date(at(i));
      txids.push(newTxid(`l${i}x`));
      await createCharge(api, txids[i], validCobV({ devedor: debtorOf(i), valor: { original: `${i + 1}.00` } }));
      if (removed(i)) expect((await api.request('PATCH', `/cobv/${txids[i]}`, { status: REMOVIDA })).status).toBe(200);
    }
    now = new Date(T0 + 3_600_000);
  });
  afterAll(async () => api?.stop());

  it('the whole period lists every charge once, each item with idCob, txid, status, equal to its GET', async () => {
    const body = await list(`${WHOLE_TIME}&paginacao.itensPorPagina=1000`);
    expect(body.parametros.paginacao).toEqual({ paginaAtual: 0, itensPorPagina: 1000, quantidadeDePaginas: 1, quantidadeTotalDeItens: N });
    expect(indexesOf(body)).toEqual(range(0, N));
    for (const item of body.cobs) {
      expect(item).toEqual(expect.objectContaining({ idCob: expect.any(String), txid: expect.any(String), status: expect.any(String) }));
      const { idCob: _id, ...rest } = item;
      expect(rest).toEqual(await readCharge(api, item.txid));
    }
    expect(new Set(body.cobs.map((c: any) => c.idCob)).size).toBe(N);
  });

  it('inicio and fim are inclusive bounds on the creation time, whatever the offset they are written in', async () => {
    expect(indexesOf(await list(`inicio=${at(5)}&fim=${at(9)}`))).toEqual(range(5, 10));
    expect(indexesOf(await list(`inicio=${at(5)}&fim=${at(5)}`))).toEqual([5]);
    expect(indexesOf(await list(`inicio=2025-06-01T09:03:30-03:00&fim=2025-06-01T09:06:30-03:00`))).toEqual([4, 5, 6]);
    expect(indexesOf(await list(`inicio=${encodeURIComponent('2025-06-01T12:20:00+00:00')}&fim=2030-01-01T00:00:00Z`))).toEqual(range(20, N));
    expect((await list('inicio=2020-01-01T00:00:00Z&fim=2025-06-01T11:59:59.999Z')).cobs).toEqual([]);
  });

  it('fractions past the millisecond, of any length, are compared exactly; parametros echoes the millisecond bounds applied', async () => {
    // Charge 5 was created at exactly at(5) (…:05:00.000Z): a hair after it excludes it as inicio, a hair before excludes it as fim.
    const past = (i: number, digits: string) => at(i).replace('Z', digits + 'Z');
    expect(indexesOf(await list(`inicio=${past(5, '0000001')}&fim=${at(7)}`))).toEqual([6, 7]);
    expect(indexesOf(await list(`inicio=${past(5, '0000000000')}&fim=${past(5, '999999999999')}`))).toEqual([5]);
    expect(indexesOf(await list(`inicio=${at(3)}&fim=${at(5).replace('00.000Z', '59.9999999999Z').replace(':05:', ':04:')}`))).toEqual([3, 4]);
    const body = await list(`inicio=${past(5, '0000001')}&fim=${past(7, '999')}`);
    expect([body.parametros.inicio, body.parametros.fim]).toEqual([new Date(Date.parse(at(5)) + 1).toISOString(), at(7)]);
  });

  it('the answer echoes the filters it applied', async () => {
    const body = await list(`inicio=${at(1)}&fim=${at(3)}&cpf=${CPF_A}&status=ATIVA&paginacao.paginaAtual=0&paginacao.itensPorPagina=2`);
    expect(body.parametros).toMatchObject({ inicio: at(1), fim: at(3), cpf: CPF_A, status: 'ATIVA', paginacao: { paginaAtual: 0, itensPorPagina: 2, quantidadeDePaginas: 2, quantidadeTotalDeItens: 3 } });
  });

  it('cpf keeps only charges of that individual debtor', async () => {
    const body = await list(`${WHOLE_TIME}&cpf=${CPF_A}`);
    expect(indexesOf(body)).toEqual(range(0, 10));
    expect(body.cobs.every((c: any) => c.devedor.cpf === CPF_A && c.devedor.cnpj === undefined)).toBe(true);
    expect(indexesOf(await list(`${WHOLE_TIME}&cpf=${CPF_B}`))).toEqual(range(20, N));
    expect((await list(`${WHOLE_TIME}&cpf=${cpfFrom(99)}`)).cobs).toEqual([]);
  });

  it('cnpj keeps only charges of that company, alphanumeric or numeric', async () => {
    const alnum = await list(`${WHOLE_TIME}&cnpj=${ALNUM_CNPJ}`);
    expect(indexesOf(alnum)).toEqual(range(10, 15));
    expect(alnum.cobs.every((c: any) => c.devedor.cnpj === ALNUM_CNPJ)).toBe(true);
    expect(alnum.parametros.cnpj).toBe(ALNUM_CNPJ);
    expect(indexesOf(await list(`${WHOLE_TIME}&cnpj=${CNPJ_N}`))).toEqual(range(15, 20));
  });

  it('status keeps only charges in that status', async () => {
    const ativas = await list(`${WHOLE_TIME}&status=ATIVA`);
    expect(indexesOf(ativas)).toEqual(range(0, N).filter((i) => !removed(i)));
    expect(ativas.cobs.every((c: any) => c.status === 'ATIVA')).toBe(true);
    const removidas = await list(`${WHOLE_TIME}&status=${REMOVIDA}`);
    expect(indexesOf(removidas)).toEqual([0, 6, 12, 18, 24]);
    expect(removidas.cobs.every((c: any) => c.status === REMOVIDA && c.revisao === 1)).toBe(true);
    expect((await list(`${WHOLE_TIME}&status=CONCLUIDA`)).cobs).toEqual([]);
  });

  it('locationPresente=true lists the charges that have a location (all of them), false lists none', async () => {
    const withLoc = await list(`${WHOLE_TIME}&locationPresente=true`);
    expect(indexesOf(withLoc)).toEqual(range(0, N));
    expect(withLoc.cobs.every((c: any) => typeof c.loc?.id === 'number' && c.location === c.loc.location)).toBe(true);
    expect(withLoc.parametros.locationPresente).toBe(true);
    const withoutLoc = await list(`${WHOLE_TIME}&locationPresente=false`);
    expect(withoutLoc.cobs).toEqual([]);
    expect(withoutLoc.parametros.paginacao.quantidadeTotalDeItens).toBe(0);
  });

  it('an open-ended fim written with the Brazilian offset (9999-12-31T23:59:59-03:00) lists everything and echoes the bound applied, in UTC', async () => {
    const fim = '9999-12-31T23:59:59-03:00';
    const body = await list(`inicio=0000-01-01T00:00:00Z&fim=${encodeURIComponent(fim)}`);
    expect(indexesOf(body)).toEqual(range(0, N));
    // Its instant is in year 10000 UTC, which RFC 3339 cannot state: the last instant that it can (L3).
    expect([body.parametros.inicio, body.parametros.fim]).toEqual(['0000-01-01T00:00:00.000Z', '9999-12-31T23:59:59.999Z']);
  });

  it('filters combine: window and cnpj and status', async () => {
    const body = await list(`inicio=${at(11)}&fim=${at(22)}&cnpj=${ALNUM_CNPJ}&status=ATIVA`);
    expect(indexesOf(body)).toEqual([11, 13, 14]);
  });

  it('25 charges at 10 per page: 3 pages of 10, 10 and 5 that together hold each charge exactly once', async () => {
    const pages = await Promise.all([0, 1, 2, 3].map((p) => list(`${WHOLE_TIME}&paginacao.paginaAtual=${p}&paginacao.itensPorPagina=10`)));
    pages.forEach((page, p) =>
      expect(page.parametros.paginacao).toEqual({ paginaAtual: p, itensPorPagina: 10, quantidadeDePaginas: 3, quantidadeTotalDeItens: N }),
    );
    expect(pages.map((p) => p.cobs.length)).toEqual([10, 10, 5, 0]);
    const seen = pages.flatMap((p) => p.cobs.map((c: any) => c.txid));
    expect(new Set(seen).size).toBe(N);
    expect(seen.map((t) => txids.indexOf(t)).sort((a, b) => a - b)).toEqual(range(0, N));
  });

  it('pagination figures follow the filter: 20 active charges at 7 per page are 3 pages', async () => {
    const last = await list(`${WHOLE_TIME}&status=ATIVA&paginacao.paginaAtual=2&paginacao.itensPorPagina=7`);
    expect(last.parametros.paginacao).toEqual({ paginaAtual: 2, itensPorPagina: 7, quantidadeDePaginas: 3, quantidadeTotalDeItens: 20 });
    expect(last.cobs).toHaveLength(6);
    expect((await list(`${WHOLE_TIME}`)).parametros.paginacao).toMatchObject({ paginaAtual: 0, itensPorPagina: 100 });
  });
});

describe('read-your-writes', () => {
  let api: RunningApi;
  beforeAll(async () => {
    api = await startApi();
  });
  afterAll(async () => api?.stop());

  it('30 times in a row: a charge just created is in the very next listing, and a PATCH is in the very next GET', async () => {
    const created: string[] = [];
    for (let i = 0; i < 30; i++) {
      const txid = newTxid(`ryw${i}x`);
      expect((await api.request('PUT', `/cobv/${txid}`, validCobV({ valor: { original: `${i + 1}.00` } }))).status).toBe(201);
      created.push(txid);
      const listed = (await api.request('GET', `/cobv?${WHOLE_TIME}&paginacao.itensPorPagina=1000`)).body;
      expect(listed.cobs.map((c: any) => c.txid)).toContain(txid);
      expect(listed.parametros.paginacao.quantidadeTotalDeItens).toBe(created.length);

      const patched = await api.request('PATCH', `/cobv/${txid}`, { solicitacaoPagador: `revisão ${i}` });
      expect(patched.status).toBe(200);
      const read = await readCharge(api, txid);
      expect(read).toMatchObject({ revisao: 1, solicitacaoPagador: `revisão ${i}` });
      expect(read).toEqual(patched.body);
      const again = (await api.request('GET', `/cobv?${WHOLE_TIME}&paginacao.itensPorPagina=1000`)).body;
      expect(again.cobs.find((c: any) => c.txid === txid)).toMatchObject({ revisao: 1, solicitacaoPagador: `revisão ${i}` });
    }
  });

  it('a PATCH that changes the debtor moves the charge between cpf and cnpj filters at once', async () => {
    const cpf = cpfFrom(4242);
    const cnpj = '12ABC34501DE35';
    const byDoc = async (q: string) => (await api.request('GET', `/cobv?${WHOLE_TIME}&${q}&paginacao.itensPorPagina=1000`)).body.cobs.map((c: any) => c.txid);
    for (let i = 0; i < 5; i++) {
      const txid = newTxid(`doc${i}x`);
      await createCharge(api, txid, validCobV({ devedor: { cpf, nome: 'Ana' } }));
      expect(await byDoc(`cpf=${cpf}`)).toContain(txid);
      expect((await api.request('PATCH', `/cobv/${txid}`, { devedor: { cnpj, nome: 'Alfa SA' } })).status).toBe(200);
      expect(await byDoc(`cpf=${cpf}`)).not.toContain(txid);
      expect(await byDoc(`cnpj=${cnpj}`)).toContain(txid);
    }
  });

  it('a removal is visible in the very next GET and status-filtered listing', async () => {
    for (let i = 0; i < 10; i++) {
      const txid = newTxid(`rm${i}x`);
      await createCharge(api, txid, validCobV());
      expect((await api.request('PATCH', `/cobv/${txid}`, { status: REMOVIDA })).status).toBe(200);
      expect((await readCharge(api, txid)).status).toBe(REMOVIDA);
      const removidas = (await api.request('GET', `/cobv?${WHOLE_TIME}&status=${REMOVIDA}&paginacao.itensPorPagina=1000`)).body;
      expect(removidas.cobs.map((c: any) => c.txid)).toContain(txid);
    }
  });

  it('a page and its total come from one snapshot, while charges are being created', async () => {
    // Audit, 2026-11-27: count and page were two statements, and 34 of 279 lists under concurrent
    // PUTs carried more charges than their quantidadeTotalDeItens said.
    const window = `inicio=${new Date().toISOString()}&fim=2100-01-01T00:00:00Z&paginacao.itensPorPagina=1000`;
    let writing = true;
    const writer = (async () => {
      for (let k = 0; k < 40; k++) await Promise.all(Array.from({ length: 4 }, () => api.request('PUT', `/cobv/${newTxid('snap')}`, validCobV())));
      writing = false;
    })();
    const inconsistent: string[] = [];
    let lists = 0;
    while (writing) {
      const { body } = await api.request('GET', `/cobv?${window}`);
      lists++;
      const { quantidadeTotalDeItens: total } = body.parametros.paginacao;
      if (body.cobs.length !== total) inconsistent.push(`${body.cobs.length} listed, total ${total}`);
    }
    await writer;
    expect(lists).toBeGreaterThan(5);
    expect(inconsistent).toEqual([]);
  });
});
