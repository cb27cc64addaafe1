import { newTxid, startApi, validCobV, type RunningApi } from '../support/api-harness';
import { createCharge, dateInDays, expectNoCharge, expectProblem, readCharge, type TipoErro } from '../support/cobv-expect';

type Body = Record<string, any>;
/** A request that must be refused: `body` is sent as JSON, `raw` byte for byte. */
interface Rejected {
  body?: (valid: Body) => unknown;
  raw?: string;
  headers?: Record<string, string>;
  txid?: string;
  status?: number;
  tipo?: TipoErro;
  /** The violation must name this property (or a member of it). */
  prop?: string | string[];
}

const without = (key: string) => (b: Body) => {
  const { [key]: _dropped, ...rest } = b;
  return rest;
};
const withValor = (extra: Body) => (b: Body) => ({ ...b, valor: { ...b.valor, ...extra } });
const withCalendario = (extra: Body) => (b: Body) => ({ ...b, calendario: { ...b.calendario, ...extra } });
const withDevedor = (devedor: Body) => (b: Body) => ({ ...b, devedor });
const due = () => validCobV().calendario.dataDeVencimento as string;
const dayAfterDue = () => new Date(Date.parse(due()) + 86_400_000).toISOString().slice(0, 10);
const dayBeforeDue = () => new Date(Date.parse(due()) - 86_400_000).toISOString().slice(0, 10);

const PUT_CASES: [string, Rejected][] = [
  ['txid of 25 characters (too short)', { txid: 'a'.repeat(25), prop: 'txid' }],
  ['txid of 36 characters (too long)', { txid: 'b'.repeat(36), prop: 'txid' }],
  ['txid with "-"', { txid: 'abcde-fghij-klmno-pqrst-uvwxyz', prop: 'txid' }],
  ['calendario missing', { body: without('calendario'), prop: 'cobv.calendario' }],
  ['devedor missing', { body: without('devedor'), prop: 'cobv.devedor' }],
  ['valor missing', { body: without('valor'), prop: 'cobv.valor' }],
  ['chave missing', { body: without('chave'), prop: 'cobv.chave' }],
  ['valor.original missing', { body: (b) => ({ ...b, valor: {} }), prop: 'cobv.valor.original' }],
  ['calendario.dataDeVencimento missing', { body: (b) => ({ ...b, calendario: { validadeAposVencimento: 1 } }), prop: 'cobv.calendario.dataDeVencimento' }],
  ['due date before today', { body: withCalendario({ dataDeVencimento: dateInDays(-3) }), prop: 'cobv.calendario.dataDeVencimento' }],
  ['due date that does not exist (2026-02-30)', { body: withCalendario({ dataDeVencimento: '2026-02-30' }), prop: 'cobv.calendario.dataDeVencimento' }],
  ['due date as a timestamp', { body: withCalendario({ dataDeVencimento: `${due()}T00:00:00Z` }), prop: 'cobv.calendario.dataDeVencimento' }],
  ['negative validadeAposVencimento', { body: withCalendario({ validadeAposVencimento: -1 }), prop: 'cobv.calendario.validadeAposVencimento' }],
  ['fractional validadeAposVencimento', { body: withCalendario({ validadeAposVencimento: 1.5 }), prop: 'cobv.calendario.validadeAposVencimento' }],
  ['CPF with wrong check digits', { body: withDevedor({ cpf: '12345678900', nome: 'Ana' }), prop: 'cobv.devedor' }],
  ['CPF with punctuation', { body: withDevedor({ cpf: '123.456.789-09', nome: 'Ana' }), prop: 'cobv.devedor' }],
  ['CPF of one repeated digit', { body: withDevedor({ cpf: '11111111111', nome: 'Ana' }), prop: 'cobv.devedor' }],
  ['numeric CNPJ with wrong check digits', { body: withDevedor({ cnpj: '56989000019564', nome: 'Empresa' }), prop: 'cobv.devedor' }],
  ['alphanumeric CNPJ with wrong check digits', { body: withDevedor({ cnpj: '12ABC34501DE36', nome: 'Empresa' }), prop: 'cobv.devedor' }],
  ['lowercase alphanumeric CNPJ', { body: withDevedor({ cnpj: '12abc34501de35', nome: 'Empresa' }), prop: 'cobv.devedor' }],
  ['devedor with both cpf and cnpj', { body: withDevedor({ cpf: '12345678909', cnpj: '56989000019563', nome: 'Ana' }), prop: 'cobv.devedor' }],
  ['devedor with neither cpf nor cnpj', { body: withDevedor({ nome: 'Ana' }), prop: 'cobv.devedor' }],
  ['devedor without nome', { body: withDevedor({ cpf: '12345678909' }), prop: 'cobv.devedor' }],
  ['chave that is not a Pix key', { body: (b) => ({ ...b, chave: 'isto não é uma chave' }), prop: 'cobv.chave' }],
  ['chave of another receiver', { body: (b) => ({ ...b, chave: '+5511999998888' }), prop: 'cobv.chave' }],
  ['chave null', { body: (b) => ({ ...b, chave: null }), prop: 'cobv.chave' }],
  ['loc.id that does not exist', { body: (b) => ({ ...b, loc: { id: 987654321 } }), prop: 'cobv.loc' }],
  ['valor.original "0.00"', { body: withValor({ original: '0.00' }), prop: 'cobv.valor.original' }],
  ['valor.original "12.3"', { body: withValor({ original: '12.3' }), prop: 'cobv.valor.original' }],
  ['valor.original as the number 12.30', { body: withValor({ original: 12.3 }), prop: 'cobv.valor.original' }],
  ['valor.original "-1.00"', { body: withValor({ original: '-1.00' }), prop: 'cobv.valor.original' }],
  ['valor.original "1,00"', { body: withValor({ original: '1,00' }), prop: 'cobv.valor.original' }],
  ['multa modalidade 3', { body: withValor({ multa: { modalidade: 3, valorPerc: '1.00' } }), prop: 'cobv.valor.multa' }],
  ['multa without valorPerc', { body: withValor({ multa: { modalidade: 1 } }), prop: 'cobv.valor.multa' }],
  ['juros modalidade 0', { body: withValor({ juros: { modalidade: 0, valorPerc: '1.00' } }), prop: 'cobv.valor.juros' }],
  ['abatimento (fixed) equal to the original', { body: withValor({ abatimento: { modalidade: 1, valorPerc: '123.45' } }), prop: 'cobv.valor.abatimento' }],
  ['abatimento (fixed) above the original', { body: withValor({ abatimento: { modalidade: 1, valorPerc: '500.00' } }), prop: 'cobv.valor.abatimento' }],
  ['abatimento of 100%', { body: withValor({ abatimento: { modalidade: 2, valorPerc: '100.00' } }), prop: 'cobv.valor.abatimento' }],
  ['abatimento of 99.99% on 0.01 (rounded half-up to the cent, the whole original)', { body: withValor({ original: '0.01', abatimento: { modalidade: 2, valorPerc: '99.99' } }), prop: 'cobv.valor.abatimento' }],
  ['desconto modalidade 1 without descontoDataFixa', { body: withValor({ desconto: { modalidade: 1 } }), prop: 'cobv.valor.desconto' }],
  ['desconto modalidade 1 with an empty descontoDataFixa', { body: withValor({ desconto: { modalidade: 1, descontoDataFixa: [] } }), prop: 'cobv.valor.desconto' }],
  ['desconto modalidade 2 with valorPerc filled', { body: () => withValor({ desconto: { modalidade: 2, valorPerc: '1.00', descontoDataFixa: [{ data: due(), valorPerc: '1.00' }] } })(validCobV()), prop: 'cobv.valor.desconto' }],
  ['desconto with a date after the due date', { body: (b) => withValor({ desconto: { modalidade: 1, descontoDataFixa: [{ data: dayAfterDue(), valorPerc: '1.00' }] } })(b), prop: 'cobv.valor.desconto' }],
  ['desconto (fixed) equal to the original', { body: (b) => withValor({ desconto: { modalidade: 1, descontoDataFixa: [{ data: due(), valorPerc: '123.45' }] } })(b), prop: 'cobv.valor.desconto' }],
  ['desconto modalidade 3 without valorPerc', { body: withValor({ desconto: { modalidade: 3 } }), prop: 'cobv.valor.desconto' }],
  ['desconto modalidade 3 with descontoDataFixa', { body: (b) => withValor({ desconto: { modalidade: 3, valorPerc: '1.00', descontoDataFixa: [{ data: due(), valorPerc: '1.00' }] } })(b), prop: 'cobv.valor.desconto' }],
  ['desconto modalidade 7', { body: withValor({ desconto: { modalidade: 7, valorPerc: '1.00' } }), prop: 'cobv.valor.desconto' }],
  ['unknown field at the top level', { body: (b) => ({ ...b, campoInventado: 1 }), prop: 'cobv.campoInventado' }],
  ['unknown field inside valor', { body: withValor({ troco: '1.00' }), prop: 'cobv.valor.troco' }],
  ['unknown field inside devedor', { body: (b) => ({ ...b, devedor: { ...b.devedor, apelido: 'Chico' } }), prop: 'cobv.devedor.apelido' }],
  ['solicitacaoPagador of 141 characters', { body: (b) => ({ ...b, solicitacaoPagador: 'x'.repeat(141) }), prop: 'cobv.solicitacaoPagador' }],
  ['51 infoAdicionais', { body: (b) => ({ ...b, infoAdicionais: Array.from({ length: 51 }, (_, i) => ({ nome: `n${i}`, valor: 'v' })) }), prop: 'cobv.infoAdicionais' }],
  ['infoAdicionais item without valor', { body: (b) => ({ ...b, infoAdicionais: [{ nome: 'a' }] }), prop: 'cobv.infoAdicionais' }],
  ['calendario as a string', { body: (b) => ({ ...b, calendario: due() }), prop: 'cobv.calendario' }],
  ['a JSON array as the body', { body: (b) => [b], prop: 'cobv' }],
  ['JSON null as the body', { body: () => null, prop: 'cobv' }],
  ['a JSON string as the body', { body: () => 'cobv', prop: 'cobv' }],
  ['a JSON number as the body', { body: () => 42, prop: 'cobv' }],
  ['an empty JSON object', { body: () => ({}), prop: ['cobv.calendario', 'cobv.devedor', 'cobv.valor', 'cobv.chave'] }],
  ['a "constructor" member', { raw: JSON.stringify(validCobV()).replace(/^\{/, '{"constructor":1,'), prop: 'cobv.constructor' }],
  // Parse-level refusals: not JSON, or JSON the parser refuses to materialise.
  ['malformed JSON', { raw: '{"calendario": {"dataDeVencimento": "2030-01-01"', tipo: 'RequisicaoInvalida' }],
  ['JSON with a trailing comma', { raw: JSON.stringify(validCobV()).replace(/\}$/, ',}'), tipo: 'RequisicaoInvalida' }],
  ['an empty body declared as JSON', { raw: '', tipo: 'RequisicaoInvalida' }],
  ['a "__proto__" member at the top level', { raw: JSON.stringify(validCobV()).replace(/^\{/, '{"__proto__":{"status":"CONCLUIDA"},'), tipo: 'RequisicaoInvalida' }],
  ['a "__proto__" member nested in valor', { raw: JSON.stringify(validCobV()).replace('"valor":{', '"valor":{"__proto__":{"original":"0.01"},'), tipo: 'RequisicaoInvalida' }],
  ['JSON sent as text/plain', { raw: JSON.stringify(validCobV()), headers: { 'content-type': 'text/plain' }, status: 415, tipo: 'RequisicaoInvalida' }],
];

const REMOVIDA = 'REMOVIDA_PELO_USUARIO_RECEBEDOR';
const PATCH_CASES: [string, Rejected][] = [
  ['status REMOVIDA together with another field', { body: () => ({ status: REMOVIDA, solicitacaoPagador: 'tchau' }), prop: 'cobv.status' }],
  ['status CONCLUIDA', { body: () => ({ status: 'CONCLUIDA' }), prop: 'cobv.status' }],
  ['status ATIVA', { body: () => ({ status: 'ATIVA' }), prop: 'cobv.status' }],
  ['valor.original "0.00"', { body: () => ({ valor: { original: '0.00' } }), prop: 'cobv.valor.original' }],
  ['valor.original at or below the existing abatimento', { body: () => ({ valor: { original: '10.00' } }), prop: 'cobv.valor.abatimento' }],
  ['due date before today', { body: () => ({ calendario: { dataDeVencimento: dateInDays(-3) } }), prop: 'cobv.calendario.dataDeVencimento' }],
  ['due date moved before the existing desconto date', { body: () => ({ calendario: { dataDeVencimento: dayBeforeDue() } }), prop: 'cobv.valor.desconto' }],
  ['negative validadeAposVencimento', { body: () => ({ calendario: { validadeAposVencimento: -5 } }), prop: 'cobv.calendario.validadeAposVencimento' }],
  ['devedor without nome', { body: () => ({ devedor: { cpf: '12345678909' } }), prop: 'cobv.devedor' }],
  ['devedor CPF with wrong check digits', { body: () => ({ devedor: { cpf: '12345678900', nome: 'Ana' } }), prop: 'cobv.devedor' }],
  ['chave of another receiver', { body: () => ({ chave: '+5511999998888' }), prop: 'cobv.chave' }],
  ['loc.id of another location', { body: () => ({ loc: { id: 987654321 } }), prop: 'cobv.loc' }],
  ['unknown top-level field', { body: () => ({ revisao: 7 }), prop: 'cobv.revisao' }],
  ['unknown nested field', { body: () => ({ calendario: { expiracao: 3600 } }), prop: 'cobv.calendario.expiracao' }],
  ['solicitacaoPagador of 141 characters', { body: () => ({ solicitacaoPagador: 'y'.repeat(141) }), prop: 'cobv.solicitacaoPagador' }],
  ['a JSON array as the body', { body: () => [{ solicitacaoPagador: 'x' }], prop: 'cobv' }],
  ['JSON null as the body', { body: () => null, prop: 'cobv' }],
  ['malformed JSON', { raw: '{"valor":', tipo: 'RequisicaoInvalida' }],
  ['a "__proto__" member', { raw: '{"__proto__":{"status":"CONCLUIDA"}}', tipo: 'RequisicaoInvalida' }],
  ['JSON sent as text/plain', { raw: '{"solicitacaoPagador":"x"}', headers: { 'content-type': 'text/plain' }, status: 415, tipo: 'RequisicaoInvalida' }],
];

/** The valid neighbours of the refusals above: the limits themselves are accepted. */
const ACCEPTED: [string, string, (valid: Body) => Body][] = [
  ['a txid of 26 characters', 'c'.repeat(26), (b) => b],
  ['a txid of 35 characters', 'D'.repeat(35), (b) => b],
  ['solicitacaoPagador of 140 characters and 50 infoAdicionais at their maximum lengths', '', (b) => ({ ...b, solicitacaoPagador: 'x'.repeat(140), infoAdicionais: Array.from({ length: 50 }, (_, i) => ({ nome: `${i}`.padEnd(50, 'n'), valor: 'v'.repeat(200) })) })],
  ['a devedor nome of 200 characters and an alphanumeric CNPJ', '', withDevedor({ cnpj: '12ABC34501DE35', nome: 'N'.repeat(200) })],
  // 99.99% of 0.01 rounds half-up to 0.01 and leaves nothing to pay (refused, ADR 4); of 10.00,
  // 99.94% rounds to 9.99 and leaves a cent.
  ['valor.original "10.00" with abatimento of 99.94% (0.01 left to pay)', '', withValor({ original: '10.00', abatimento: { modalidade: 2, valorPerc: '99.94' } })],
  ['a desconto dated on the due date, just below the original', '', (b) => withValor({ desconto: { modalidade: 1, descontoDataFixa: [{ data: due(), valorPerc: '123.44' }] } })(b)],
  ['modalidade written as the string "2" (as in the official examples)', '', withValor({ multa: { modalidade: '2', valorPerc: '2.00' }, juros: { modalidade: '8', valorPerc: '1.00' } })],
];

async function send(api: RunningApi, method: 'PUT' | 'PATCH', txid: string, c: Rejected) {
  const path = `/cobv/${encodeURIComponent(txid)}`;
  if (c.raw !== undefined) return api.raw(method, path, c.raw, c.headers ?? { 'content-type': 'application/json' });
  return api.request(method, path, (c.body ?? ((b: Body) => b))(validCobV()));
}

/** How many charges were created from `since` on (so a leak from another case never spills here). */
const createdSince = async (api: RunningApi, since: string) =>
  (await api.request('GET', `/cobv?inicio=${since}&fim=2100-01-01T00:00:00Z`)).body.parametros.paginacao.quantidadeTotalDeItens;

describe('cobv: invalid requests are refused and change nothing', () => {
  let api: RunningApi;
  beforeAll(async () => {
    api = await startApi();
  });
  afterAll(async () => api?.stop());

  it.each(PUT_CASES)('PUT with %s is refused', async (_name, c) => {
    const txid = c.txid ?? newTxid('bad');
    const since = new Date().toISOString();
    expectProblem(await send(api, 'PUT', txid, c), c.status ?? 400, c.tipo ?? 'CobVOperacaoInvalida', c.prop);
    await expectNoCharge(api, txid);
    expect(await createdSince(api, since)).toBe(0);
  });

  it.each(PATCH_CASES)('PATCH with %s is refused', async (_name, c) => {
    const txid = newTxid('pbad');
    const desconto = { modalidade: 1, descontoDataFixa: [{ data: due(), valorPerc: '5.00' }] };
    await createCharge(api, txid, validCobV({ valor: { original: '100.00', abatimento: { modalidade: 1, valorPerc: '10.00' }, desconto } }));
    const before = await readCharge(api, txid);
    expectProblem(await send(api, 'PATCH', txid, c), c.status ?? 400, c.tipo ?? 'CobVOperacaoInvalida', c.prop);
    expect(await readCharge(api, txid)).toEqual(before);
    expectProblem(await api.request('GET', `/cobv/${txid}?revisao=1`), 400, 'CobVConsultaInvalida', 'revisao');
  });

  it('a refused field says what it would take (txid from the path, members from the DTO)', async () => {
    const bad = await api.request('PUT', `/cobv/${'a'.repeat(25)}`, validCobV({ valor: { original: '1,00' } }));
    expect(bad.body.violacoes.map((v: { razao: string }) => v.razao)).toEqual(['O campo txid não respeita o _schema_: esperado de 26 a 35 letras (a-z, A-Z) ou dígitos.']);
    const amount = await api.request('PUT', `/cobv/${newTxid('fmt')}`, validCobV({ valor: { original: '1,00' }, calendario: { dataDeVencimento: '2030-02-30' } }));
    expect(amount.body.violacoes.map((v: { razao: string }) => v.razao)).toEqual([
      'O campo cobv.calendario.dataDeVencimento não respeita o _schema_: esperado uma data AAAA-MM-DD que exista.',
      'O campo cobv.valor.original não respeita o _schema_: esperado um valor como "123.45" (até 10 dígitos, ponto, 2 casas decimais).',
    ]);
  });

  it.each(ACCEPTED)('PUT with %s is accepted', async (_name, txid, body) => {
    const id = txid || newTxid('ok');
    const res = await api.request('PUT', `/cobv/${id}`, body(validCobV()));
    expect(res.status).toBe(201);
    expect(await readCharge(api, id)).toEqual(res.body);
  });

  // Framework-level refusals: a form body is not JSON (415); a txid longer than the router's default
  // parameter limit still reaches our validation; so does a txid whose %-encoding cannot be decoded.
  const FRAMEWORK_CASES: [string, string, string, Record<string, string>, number, 'RequisicaoInvalida' | 'CobVOperacaoInvalida'][] = [
    ['a form-urlencoded body is 415', newTxid('form'), 'calendario=1', { 'content-type': 'application/x-www-form-urlencoded' }, 415, 'RequisicaoInvalida'],
    ['a txid of 101 characters is a CobVOperacaoInvalida problem', 'e'.repeat(101), JSON.stringify(validCobV()), { 'content-type': 'application/json' }, 400, 'CobVOperacaoInvalida'],
    // A malformed escape is refused as bytes that are not UTF-8 are: the endpoint's own problem (undecodable-url.ts).
    ['a txid with broken %-encoding is a CobVOperacaoInvalida problem', 'abc%zzdefghijklmnopqrstuvwxyz', JSON.stringify(validCobV()), { 'content-type': 'application/json' }, 400, 'CobVOperacaoInvalida'],
  ];
  for (const [name, txid, raw, headers, status, tipo] of FRAMEWORK_CASES) {
    it(`PUT with ${name}`, async () => {
      const res = await api.raw('PUT', `/cobv/${txid}`, raw, headers);
      expectProblem(res, status, tipo);
    });
  }

  it('PATCH of a txid that was never created is 404 CobVNaoEncontrada and creates nothing', async () => {
    const txid = newTxid('nobody');
    expectProblem(await api.request('PATCH', `/cobv/${txid}`, { solicitacaoPagador: 'x' }), 404, 'CobVNaoEncontrada');
    expectProblem(await api.request('PATCH', `/cobv/${txid}`, validCobV()), 404, 'CobVNaoEncontrada');
    await expectNoCharge(api, txid);
  });

  it.each([
    ['a negative revisao', '-1'],
    ['a non-numeric revisao', 'abc'],
    ['a fractional revisao', '1.5'],
  ])('GET /cobv/{txid} with %s is CobVConsultaInvalida', async (_name, revisao) => {
    const txid = newTxid('rev');
    const charge = await createCharge(api, txid, validCobV());
    expectProblem(await api.request('GET', `/cobv/${txid}?revisao=${revisao}`), 400, 'CobVConsultaInvalida', 'revisao');
    expect(await readCharge(api, txid)).toEqual(charge);
  });

  const I = 'inicio=2020-01-01T00:00:00Z';
  const F = 'fim=2030-01-01T00:00:00Z';
  it.each([
    ['without inicio', F, 'inicio'],
    ['without fim', I, 'fim'],
    ['without inicio and fim', '', ['inicio', 'fim']],
    ['with fim before inicio', 'inicio=2030-01-01T00:00:00Z&fim=2020-01-01T00:00:00Z', 'fim'],
    ['with inicio that is not a timestamp', `inicio=ontem&${F}`, 'inicio'],
    ['with inicio without a time-zone offset', `inicio=2020-01-01T00:00:00&${F}`, 'inicio'],
    ['with both cpf and cnpj', `${I}&${F}&cpf=12345678909&cnpj=56989000019563`, ['cpf', 'cnpj']],
    ['with a cpf of 10 digits', `${I}&${F}&cpf=1234567890`, 'cpf'],
    ['with a lowercase cnpj', `${I}&${F}&cnpj=12abc34501de35`, 'cnpj'],
    ['with an unknown status', `${I}&${F}&status=PAGA`, 'status'],
    ['with locationPresente=talvez', `${I}&${F}&locationPresente=talvez`, 'locationPresente'],
    ['with paginacao.paginaAtual=-1', `${I}&${F}&paginacao.paginaAtual=-1`, 'paginacao.paginaAtual'],
    ['with paginacao.itensPorPagina=0', `${I}&${F}&paginacao.itensPorPagina=0`, 'paginacao.itensPorPagina'],
    ['with paginacao.itensPorPagina=1001', `${I}&${F}&paginacao.itensPorPagina=1001`, 'paginacao.itensPorPagina'],
    ['with paginacao.itensPorPagina=abc', `${I}&${F}&paginacao.itensPorPagina=abc`, 'paginacao.itensPorPagina'],
  ])('GET /cobv %s is CobVConsultaInvalida', async (_name, query, prop) => {
    expectProblem(await api.request('GET', `/cobv?${query}`), 400, 'CobVConsultaInvalida', prop);
  });
});

describe('cobv: bodies over MAX_BODY_BYTES', () => {
  let api: RunningApi;
  beforeAll(async () => {
    api = await startApi({ env: { MAX_BODY_BYTES: '4096' } });
  });
  afterAll(async () => api?.stop());

  // Valid in every respect but size: 30 × 200-character infoAdicionais is about 7 KB.
  const bulky = () => validCobV({ infoAdicionais: Array.from({ length: 30 }, (_, i) => ({ nome: `campo${i}`, valor: 'v'.repeat(200) })) });

  it('a small valid PUT still creates the charge under the limit', async () => {
    expect((await api.request('PUT', `/cobv/${newTxid('small')}`, validCobV())).status).toBe(201);
  });

  it('PUT with a body over the limit is 413 and stores nothing', async () => {
    const txid = newTxid('big');
    expect(Buffer.byteLength(JSON.stringify(bulky()))).toBeGreaterThan(4096);
    expectProblem(await api.request('PUT', `/cobv/${txid}`, bulky()), 413, 'RequisicaoInvalida');
    await expectNoCharge(api, txid);
  });

  it('PATCH with a body over the limit is 413 and leaves the charge as it was', async () => {
    const txid = newTxid('bigp');
    const charge = await createCharge(api, txid, validCobV());
    expectProblem(await api.request('PATCH', `/cobv/${txid}`, { infoAdicionais: bulky().infoAdicionais }), 413, 'RequisicaoInvalida');
    expect(await readCharge(api, txid)).toEqual(charge);
  });
});
