import { officialExample } from '../testing/official-examples';
import { validateBody } from '../validation/validate-body';
import { CobVSolicitadaDto } from './cobv-request.dto';

const put = (body: unknown) => validateBody(CobVSolicitadaDto, body);
const paths = (r: { violacoes: { propriedade?: string }[] }) => r.violacoes.map((v) => v.propriedade);

describe('CobVSolicitadaDto (PUT /cobv/{txid})', () => {
  it('accepts the official cobBody1 and normalises string modalidades to numbers', () => {
    const body = officialExample('cobBody1');
    expect(body.valor.multa.modalidade).toBe('2'); // the example really sends strings
    const result = put(body);
    expect(result.violacoes).toEqual([]);
    expect(result.value).toEqual({
      ...body,
      valor: {
        ...body.valor,
        multa: { modalidade: 2, valorPerc: '15.00' },
        juros: { modalidade: 2, valorPerc: '2.00' },
        desconto: { modalidade: 1, descontoDataFixa: [{ data: '2020-11-30', valorPerc: '30.00' }] },
      },
    });
  });

  it('returns plain objects, without class instances or members that were not sent', () => {
    const { value } = put(officialExample('cobBody1'));
    const walk = (v: unknown): void => {
      if (Array.isArray(v)) return v.forEach(walk);
      if (typeof v !== 'object' || v === null) return;
      expect(Object.getPrototypeOf(v)).toBe(Object.prototype);
      Object.values(v).forEach((m) => {
        expect(m).not.toBeUndefined();
        walk(m);
      });
    };
    walk(value);
    expect(Object.keys(value!.devedor)).not.toContain('cnpj');
  });

  it('accepts a CNPJ debtor, alphanumeric CNPJ included', () => {
    const body = officialExample('cobBody1');
    body.devedor = { cnpj: '12ABC34501DE35', nome: 'Empresa SA' };
    expect(put(body).violacoes).toEqual([]);
  });

  it.each([
    ['chave', (b: any) => delete b.chave],
    ['devedor', (b: any) => delete b.devedor],
    ['calendario', (b: any) => delete b.calendario],
    ['valor', (b: any) => delete b.valor],
    ['valor.original', (b: any) => delete b.valor.original],
    ['calendario.dataDeVencimento', (b: any) => delete b.calendario.dataDeVencimento],
    ['devedor.nome', (b: any) => delete b.devedor.nome],
    ['loc.id', (b: any) => delete b.loc.id],
    ['valor.multa.valorPerc', (b: any) => delete b.valor.multa.valorPerc],
    ['valor.desconto.modalidade', (b: any) => delete b.valor.desconto.modalidade],
    ['valor.desconto.descontoDataFixa[0].data', (b: any) => delete b.valor.desconto.descontoDataFixa[0].data],
  ])('reports the missing required member cobv.%s', (path, mutate) => {
    const body = officialExample('cobBody1');
    mutate(body);
    expect(paths(put(body))).toEqual([`cobv.${path}`]);
  });

  // What each refused field says it takes: read from the DTO's own decorators (expected-format.ts).
  const MONEY = 'um valor como "123.45" (até 10 dígitos, ponto, 2 casas decimais)';
  const EXPECTED: Record<string, string> = {
    'valor.original': MONEY,
    'valor.multa.modalidade': 'número inteiro de 1 a 2',
    'valor.juros.modalidade': 'número inteiro de 1 a 8',
    'valor.desconto.modalidade': 'número inteiro de 1 a 6',
    'valor.desconto.valorPerc': MONEY,
    'valor.desconto.descontoDataFixa[].data': 'uma data AAAA-MM-DD que exista',
    'calendario.dataDeVencimento': 'uma data AAAA-MM-DD que exista',
    'calendario.validadeAposVencimento': 'número inteiro de -2147483648 a 2147483647',
    'loc.id': 'número inteiro',
    'devedor.cpf': '11 dígitos',
    'devedor.nome': 'texto de até 200 caracteres',
    'devedor.uf': 'texto de até 2 caracteres',
    'devedor.cep': 'texto de até 8 caracteres',
    'devedor.email': 'texto',
    chave: 'texto de até 77 caracteres',
    solicitacaoPagador: 'texto de até 140 caracteres',
  };
  it.each([
    ['valor.original', (b: any) => (b.valor.original = '123.4'), '123.4'],
    ['valor.original', (b: any) => (b.valor.original = 'x123.45'), 'x123.45'],
    ['valor.original', (b: any) => (b.valor.original = '12345678901.00'), '12345678901.00'],
    ['valor.original', (b: any) => (b.valor.original = 123.45), '123.45'],
    ['valor.multa.modalidade', (b: any) => (b.valor.multa.modalidade = 3), '3'],
    ['valor.multa.modalidade', (b: any) => (b.valor.multa.modalidade = '2.5'), '2.5'],
    ['valor.multa.modalidade', (b: any) => (b.valor.multa.modalidade = 1.5), '1.5'],
    ['valor.juros.modalidade', (b: any) => (b.valor.juros.modalidade = 9), '9'],
    ['valor.juros.modalidade', (b: any) => (b.valor.juros.modalidade = '0'), '0'],
    ['valor.desconto.modalidade', (b: any) => (b.valor.desconto.modalidade = 7), '7'],
    ['valor.desconto.valorPerc', (b: any) => (b.valor.desconto.valorPerc = '1,00'), '1,00'],
    ['valor.desconto.descontoDataFixa[0].data', (b: any) => (b.valor.desconto.descontoDataFixa[0].data = '2020-02-30'), '2020-02-30'],
    ['calendario.dataDeVencimento', (b: any) => (b.calendario.dataDeVencimento = '2020-12-31T00:00:00Z'), '2020-12-31T00:00:00Z'],
    ['calendario.validadeAposVencimento', (b: any) => (b.calendario.validadeAposVencimento = '30'), '30'],
    ['calendario.validadeAposVencimento', (b: any) => (b.calendario.validadeAposVencimento = 2 ** 31), String(2 ** 31)],
    ['loc.id', (b: any) => (b.loc.id = '789'), '789'],
    ['loc.id', (b: any) => (b.loc.id = 7.5), '7.5'],
    ['devedor.cpf', (b: any) => (b.devedor.cpf = '123.456.789-09'), '123.456.789-09'],
    ['devedor.nome', (b: any) => (b.devedor.nome = 'n'.repeat(201)), 'n'.repeat(200) + '…'],
    ['devedor.uf', (b: any) => (b.devedor.uf = 'PER'), 'PER'],
    ['devedor.cep', (b: any) => (b.devedor.cep = '700117500'), '700117500'],
    ['devedor.email', (b: any) => (b.devedor.email = 42), '42'],
    ['chave', (b: any) => (b.chave = 'k'.repeat(78)), 'k'.repeat(78)],
    ['chave', (b: any) => (b.chave = null), 'null'],
    ['solicitacaoPagador', (b: any) => (b.solicitacaoPagador = 's'.repeat(141)), 's'.repeat(141)],
  ])('reports cobv.%s with its offending value and what it expects', (path, mutate, valor) => {
    const body = officialExample('cobBody1');
    mutate(body);
    expect(put(body).violacoes).toEqual([
      { razao: `O campo cobv.${path} não respeita o _schema_: esperado ${EXPECTED[path.replace(/\[\d+\]/g, '[]')]}.`, propriedade: `cobv.${path}`, valor },
    ]);
  });

  it('rejects a CNPJ with lowercase letters or the wrong length', () => {
    const body = officialExample('cobBody1');
    body.devedor = { cnpj: '12abc34501de35', nome: 'Empresa SA' };
    expect(paths(put(body))).toEqual(['cobv.devedor.cnpj']);
    body.devedor.cnpj = '1234567800019';
    expect(paths(put(body))).toEqual(['cobv.devedor.cnpj']);
  });

  it('requires exactly one of cpf / cnpj, reported on the devedor object as in the official example', () => {
    const both = officialExample('cobBody1');
    both.devedor.cnpj = '12345678000195';
    expect(put(both).violacoes).toEqual([
      { razao: 'O objeto cobv.devedor não respeita o _schema_.', propriedade: 'cobv.devedor' },
    ]);
    const none = officialExample('cobBody1');
    delete none.devedor.cpf;
    expect(paths(put(none))).toEqual(['cobv.devedor']);
  });

  it('reports wrongly typed objects once, without descending into them', () => {
    const body = officialExample('cobBody1');
    body.calendario = [{ dataDeVencimento: '2020-12-31' }];
    body.valor.multa = 'muita';
    body.loc = null;
    expect(put(body).violacoes).toEqual([
      { razao: 'O objeto cobv.calendario não respeita o _schema_.', propriedade: 'cobv.calendario' },
      { razao: 'O objeto cobv.loc não respeita o _schema_.', propriedade: 'cobv.loc', valor: 'null' },
      { razao: 'O objeto cobv.valor.multa não respeita o _schema_.', propriedade: 'cobv.valor.multa', valor: 'muita' },
    ]);
  });

  it('checks infoAdicionais: size, item type and item fields with indexed paths', () => {
    const item = (i: number) => ({ nome: `Campo ${i}`, valor: `Valor ${i}` });
    const body = officialExample('cobBody1');
    body.infoAdicionais = Array.from({ length: 50 }, (_, i) => item(i));
    expect(put(body).violacoes).toEqual([]);

    body.infoAdicionais = Array.from({ length: 51 }, (_, i) => item(i));
    expect(paths(put(body))).toEqual(['cobv.infoAdicionais']);

    body.infoAdicionais = [item(0), item(1), { nome: 'n'.repeat(51), valor: 'v' }, { nome: 'x' }];
    expect(paths(put(body))).toEqual(['cobv.infoAdicionais[2].nome', 'cobv.infoAdicionais[3].valor']);

    body.infoAdicionais = [[item(0)]];
    expect(paths(put(body))).toEqual(['cobv.infoAdicionais']);
    body.infoAdicionais = ['texto'];
    expect(paths(put(body))).toEqual(['cobv.infoAdicionais']);
  });

  it('checks descontoDataFixa: 1 to 3 distinct items', () => {
    const body = officialExample('cobBody1');
    const d = (data: string) => ({ data, valorPerc: '1.00' });
    body.valor.desconto.descontoDataFixa = [];
    expect(paths(put(body))).toEqual(['cobv.valor.desconto.descontoDataFixa']);
    body.valor.desconto.descontoDataFixa = [d('2020-11-01'), d('2020-11-02'), d('2020-11-03'), d('2020-11-04')];
    expect(paths(put(body))).toEqual(['cobv.valor.desconto.descontoDataFixa']);
    body.valor.desconto.descontoDataFixa = [d('2020-11-01'), d('2020-11-01')];
    expect(paths(put(body))).toEqual(['cobv.valor.desconto.descontoDataFixa']);
  });

  it('leaves semantic rules to the domain (zero amount, past due date, modality cross-rules, check digits)', () => {
    const body = officialExample('cobBody1');
    body.valor.original = '0.00';
    body.calendario.dataDeVencimento = '1999-01-01';
    body.calendario.validadeAposVencimento = -1;
    body.devedor.cpf = '11111111111';
    body.valor.desconto = { modalidade: 3, descontoDataFixa: [{ data: '2020-11-30', valorPerc: '1.00' }] };
    expect(put(body).violacoes).toEqual([]);
  });

  it.each([
    ['cobv.txid', (b: any) => (b.txid = 'abc')],
    ['cobv.status', (b: any) => (b.status = 'REMOVIDA_PELO_USUARIO_RECEBEDOR')],
    ['cobv.calendario.expiracao', (b: any) => (b.calendario.expiracao = 3600)],
    ['cobv.devedor.telefone', (b: any) => (b.devedor.telefone = '61999')],
    ['cobv.loc.location', (b: any) => (b.loc.location = 'x')],
    ['cobv.valor.modalidadeAlteracao', (b: any) => (b.valor.modalidadeAlteracao = 1)],
    ['cobv.valor.multa.data', (b: any) => (b.valor.multa.data = '2020-01-01')],
    ['cobv.valor.desconto.descontoDataFixa[0].extra', (b: any) => (b.valor.desconto.descontoDataFixa[0].extra = {})],
    ['cobv.infoAdicionais[0].extra', (b: any) => (b.infoAdicionais = [{ nome: 'a', valor: 'b', extra: true }])],
  ])('rejects the unknown member %s', (path, mutate) => {
    const body = officialExample('cobBody1');
    mutate(body);
    const result = put(body);
    expect(result.value).toBeUndefined();
    expect(result.violacoes).toEqual([
      expect.objectContaining({ razao: `O campo ${path} não é permitido pelo _schema_.`, propriedade: path }),
    ]);
  });

  it('accepts loc.tipoCob, which the schema names as required but the example omits', () => {
    const body = officialExample('cobBody1');
    body.loc.tipoCob = 'cobv';
    expect(put(body).violacoes).toEqual([]);
    for (const other of ['rec', 'cob']) {
      body.loc.tipoCob = other;
      expect(paths(put(body))).toEqual(['cobv.loc.tipoCob']);
    }
  });
});
