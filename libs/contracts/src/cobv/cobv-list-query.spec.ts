import fc from 'fast-check';
import { parseCobVListQuery, parseRevisaoQuery } from './cobv-list-query';

const BASE = { inicio: '2020-04-01T00:00:00Z', fim: '2020-04-01T23:59:59Z' };
const parse = (extra: Record<string, string | string[] | undefined> = {}) => parseCobVListQuery({ ...BASE, ...extra });
const paths = (r: { violacoes: { propriedade?: string }[] }) => r.violacoes.map((v) => v.propriedade);

describe('parseCobVListQuery', () => {
  it('parses the minimal query with default pagination', () => {
    expect(parse()).toEqual({
      value: {
        inicio: new Date('2020-04-01T00:00:00Z'),
        fim: new Date('2020-04-01T23:59:59Z'),
        paginaAtual: 0,
        itensPorPagina: 100,
      },
      violacoes: [],
    });
  });

  it('parses every filter', () => {
    const { value, violacoes } = parse({
      cpf: '12345678909',
      status: 'REMOVIDA_PELO_PSP',
      locationPresente: 'false',
      loteCobVId: '42',
      'paginacao.paginaAtual': '3',
      'paginacao.itensPorPagina': '1000',
    });
    expect(violacoes).toEqual([]);
    expect(value).toMatchObject({
      cpf: '12345678909',
      status: 'REMOVIDA_PELO_PSP',
      locationPresente: false,
      loteCobVId: 42,
      paginaAtual: 3,
      itensPorPagina: 1000,
    });
    expect(parse({ cnpj: '12ABC34501DE35', locationPresente: 'true' }).value).toMatchObject({
      cnpj: '12ABC34501DE35',
      locationPresente: true,
    });
  });

  it('requires inicio and fim', () => {
    expect(parseCobVListQuery({})).toEqual({
      violacoes: [
        { razao: 'O parâmetro inicio é obrigatório.', propriedade: 'inicio' },
        { razao: 'O parâmetro fim é obrigatório.', propriedade: 'fim' },
      ],
    });
  });

  it.each(['2020-04-01', '2020-04-01T00:00:00', '2020-04-01 00:00:00Z', '2020-02-30T00:00:00Z', '2020-04-01T24:00:00Z', '2020-04-01T00:00:00+25:00', 'agora', ''])(
    'rejects inicio=%j, which is not an RFC 3339 date-time',
    (inicio) => {
      expect(parse({ inicio }).violacoes).toEqual([
        { razao: 'O parâmetro inicio não respeita o _schema_.', propriedade: 'inicio', valor: inicio },
      ]);
    },
  );

  it('honours offsets, fractions, lowercase t/z and leap seconds', () => {
    expect(parse({ inicio: '2020-04-01T00:00:00.5-03:00' }).violacoes).toEqual([]);
    expect(parse({ inicio: '2020-04-01T00:00:00.5-03:00' }).value!.inicio.toISOString()).toBe('2020-04-01T03:00:00.500Z');
    expect(parse({ inicio: '2020-03-31t23:59:60z' }).value!.inicio.toISOString()).toBe('2020-04-01T00:00:00.000Z');
  });

  describe('fractions of any length, compared exactly with stored instants (whole milliseconds)', () => {
    const bounds = (inicio: string, fim: string) => {
      const r = parseCobVListQuery({ inicio, fim });
      expect(r.violacoes).toEqual([]);
      return [r.value!.inicio.toISOString(), r.value!.fim.toISOString()];
    };
    it('accepts 10 and more digits (RFC 3339: "." 1*DIGIT)', () => {
      expect(bounds('2026-11-27T00:00:00.1234567890Z', '2026-11-27T00:00:00.98765432109876543210Z')).toEqual(['2026-11-27T00:00:00.124Z', '2026-11-27T00:00:00.987Z']);
    });
    it('takes inicio up and fim down to the millisecond when digits lie past it, and leaves exact ones', () => {
      expect(bounds('2026-11-27T12:34:54.136999Z', '2026-11-27T12:34:54.136999Z')).toEqual(['2026-11-27T12:34:54.137Z', '2026-11-27T12:34:54.136Z']);
      expect(bounds('2026-11-27T12:34:54.1360000000Z', '2026-11-27T12:34:54.136000Z')).toEqual(['2026-11-27T12:34:54.136Z', '2026-11-27T12:34:54.136Z']);
      expect(bounds('2026-11-27T12:34:54.1360001Z', '2026-11-27T12:34:55.0000001Z')).toEqual(['2026-11-27T12:34:54.137Z', '2026-11-27T12:34:55.000Z']);
    });
    it('carries across a second, a day and the epoch, and applies offsets', () => {
      expect(bounds('2026-12-31T23:59:59.9991Z', '2027-01-01T00:00:00Z')).toEqual(['2027-01-01T00:00:00.000Z', '2027-01-01T00:00:00.000Z']);
      expect(bounds('1969-12-31T23:59:59.9991Z', '1970-01-01T00:00:00Z')).toEqual(['1970-01-01T00:00:00.000Z', '1970-01-01T00:00:00.000Z']);
      expect(bounds('2020-04-01T00:00:00.0001-03:00', '2020-04-01T00:00:00.0009-03:00')).toEqual(['2020-04-01T03:00:00.001Z', '2020-04-01T03:00:00.000Z']);
    });
    it('orders inicio and fim exactly: within one millisecond is a valid (empty) window, fim a hair below inicio is not', () => {
      expect(bounds('2026-11-27T12:34:54.1364Z', '2026-11-27T12:34:54.13640Z')).toEqual(['2026-11-27T12:34:54.137Z', '2026-11-27T12:34:54.136Z']);
      expect(paths(parseCobVListQuery({ inicio: '2026-11-27T12:34:54.13641Z', fim: '2026-11-27T12:34:54.1364Z' }))).toEqual(['fim']);
      expect(paths(parseCobVListQuery({ inicio: '2026-11-27T12:34:54.1364Z', fim: '2026-11-27T09:34:54.136399999-03:00' }))).toEqual(['fim']);
    });
  });

  describe('instants whose UTC form has no four-digit year (L3): the bound applied, in UTC, or the parameter refused', () => {
    const echo = (inicio: string, fim: string) => {
      const r = parseCobVListQuery({ inicio, fim });
      expect(r.violacoes).toEqual([]);
      return [r.value!.inicio.toISOString(), r.value!.fim.toISOString()];
    };
    it('an open fim past 9999 UTC, or an inicio before 0000, is that end of what the API stores: the same filter', () => {
      expect(echo('2020-01-01T00:00:00Z', '9999-12-31T23:30:00-03:00')).toEqual(['2020-01-01T00:00:00.000Z', '9999-12-31T23:59:59.999Z']);
      expect(echo('0000-01-01T00:00:00+01:00', '0000-01-01T00:30:00Z')).toEqual(['0000-01-01T00:00:00.000Z', '0000-01-01T00:30:00.000Z']);
      expect(echo('0000-01-01T00:00:00+23:59', '9999-12-31T23:59:59-23:59')).toEqual(['0000-01-01T00:00:00.000Z', '9999-12-31T23:59:59.999Z']);
      // The last and first instants themselves, and fim a hair past the last, are unchanged or taken down.
      expect(echo('9999-12-31T23:59:59.999Z', '9999-12-31T23:59:59.9999Z')).toEqual(['9999-12-31T23:59:59.999Z', '9999-12-31T23:59:59.999Z']);
      expect(echo('0000-01-01T00:00:00Z', '0000-01-01T00:00:00Z')).toEqual(['0000-01-01T00:00:00.000Z', '0000-01-01T00:00:00.000Z']);
    });
    it('a window that starts after 9999 UTC or ends before 0000 holds nothing the API can state: the parameter is refused', () => {
      const inicio = parseCobVListQuery({ inicio: '9999-12-31T23:30:00-03:00', fim: '9999-12-31T23:40:00-03:00' });
      expect(inicio).toEqual({
        violacoes: [{ razao: 'O parâmetro inicio é posterior a 9999-12-31T23:59:59.999Z, o último instante que a API representa em UTC.', propriedade: 'inicio', valor: '9999-12-31T23:30:00-03:00' }],
      });
      // Its millisecond at or above is past the last.
      expect(paths(parseCobVListQuery({ inicio: '9999-12-31T23:59:59.9991Z', fim: '9999-12-31T23:59:59.9999Z' }))).toEqual(['inicio']);
      const fim = parseCobVListQuery({ inicio: '0000-01-01T00:00:00+02:00', fim: '0000-01-01T00:00:00+01:00' });
      expect(fim).toEqual({
        violacoes: [{ razao: 'O parâmetro fim é anterior a 0000-01-01T00:00:00.000Z, o primeiro instante que a API representa em UTC.', propriedade: 'fim', valor: '0000-01-01T00:00:00+01:00' }],
      });
    });
    it('every instant the parser accepts is stated in UTC with four year digits', () => {
      const year = fc.oneof(fc.constantFrom(0, 9999), fc.integer({ min: 0, max: 9999 })).map((y) => String(y).padStart(4, '0'));
      const offset = fc.tuple(fc.constantFrom('+', '-'), fc.integer({ min: 0, max: 23 }), fc.integer({ min: 0, max: 59 })).map(([s, h, m]) => `${s}${String(h).padStart(2, '0')}:${String(m).padStart(2, '0')}`);
      const instant = fc.tuple(year, fc.constantFrom('01-01T00:00:00', '12-31T23:59:59', '06-15T12:00:00.5'), offset).map(([y, rest, o]) => `${y}-${rest}${o}`);
      fc.assert(
        fc.property(instant, instant, (a, b) => {
          const r = parseCobVListQuery({ inicio: a, fim: b });
          if (!r.value) return;
          for (const d of [r.value.inicio, r.value.fim]) expect(d.toISOString()).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
        }),
      );
    });
  });

  it('reports fim before inicio with the contract wording', () => {
    expect(parse({ fim: '2020-03-31T23:59:59Z' }).violacoes).toEqual([
      {
        razao: 'O timestamp representado pelo parâmetro fim é anterior ao timestamp representado pelo parâmetro inicio.',
        propriedade: 'fim',
      },
    ]);
    // Same instant in different offsets is not "before".
    expect(parse({ inicio: '2020-04-01T03:00:00Z', fim: '2020-04-01T00:00:00-03:00' }).violacoes).toEqual([]);
  });

  it('rejects cpf and cnpj together, and malformed ones', () => {
    expect(parse({ cpf: '12345678909', cnpj: '12345678000195' }).violacoes).toEqual([
      { razao: 'Ambos os parâmetros cpf e cnpj estão preenchidos.', propriedade: 'cpf' },
    ]);
    expect(paths(parse({ cpf: '123.456.789-09' }))).toEqual(['cpf']);
    expect(paths(parse({ cnpj: '12abc34501de35' }))).toEqual(['cnpj']);
  });

  it('reports negative pagination with the contract wording', () => {
    expect(parse({ 'paginacao.paginaAtual': '-1', 'paginacao.itensPorPagina': '-10' }).violacoes).toEqual([
      { razao: 'O parâmetro paginacao.paginaAtual é negativo.', propriedade: 'paginacao.paginaAtual', valor: '-1' },
      { razao: 'O parâmetro paginacao.itensPorPagina é negativo.', propriedade: 'paginacao.itensPorPagina', valor: '-10' },
    ]);
    expect(parse({ 'paginacao.paginaAtual': '-0' }).value!.paginaAtual).toBe(0);
  });

  it.each([
    ['paginacao.paginaAtual', '1.5'],
    ['paginacao.paginaAtual', 'abc'],
    ['paginacao.paginaAtual', '2147483648'],
    ['paginacao.itensPorPagina', '0'],
    ['paginacao.itensPorPagina', '1001'],
    ['paginacao.itensPorPagina', ''],
    ['locationPresente', 'TRUE'],
    ['locationPresente', '1'],
    ['loteCobVId', '2147483648'],
    ['loteCobVId', '1e3'],
    ['status', 'ativa'],
    ['status', 'REMOVIDO_PELO_PSP'],
  ])('rejects %s=%j as not respecting the schema', (name, valor) => {
    expect(parse({ [name]: valor }).violacoes).toEqual([
      { razao: `O parâmetro ${name} não respeita o _schema_.`, propriedade: name, valor },
    ]);
  });

  it('rejects repeated parameters and accepts single-element arrays', () => {
    expect(parse({ status: ['ATIVA', 'CONCLUIDA'] }).violacoes).toEqual([
      { razao: 'O parâmetro status foi informado mais de uma vez.', propriedade: 'status' },
    ]);
    expect(paths(parse({ inicio: [BASE.inicio, BASE.inicio] }))).toEqual(['inicio']);
    expect(parse({ status: ['ATIVA'] }).value!.status).toBe('ATIVA');
  });

  it('ignores unknown parameters, prototype-ish names included', () => {
    const query = JSON.parse('{"__proto__":"x","constructor":"y","foo":["a","b"]}');
    expect(parseCobVListQuery({ ...BASE, ...query }).violacoes).toEqual([]);
    expect(parse({ txid: 'abc', 'paginacao.outra': '1' }).violacoes).toEqual([]);
  });

  it('never throws on arbitrary query objects', () => {
    const value = fc.oneof(fc.string(), fc.array(fc.string(), { maxLength: 3 }), fc.constant(undefined));
    const key = fc.constantFrom('inicio', 'fim', 'cpf', 'cnpj', 'status', 'locationPresente', 'loteCobVId', 'paginacao.paginaAtual', 'paginacao.itensPorPagina', 'x');
    fc.assert(
      fc.property(fc.dictionary(key, value), (query) => {
        const result = parseCobVListQuery(query);
        expect(result.value === undefined || result.violacoes.length === 0).toBe(true);
      }),
      { numRuns: 500 },
    );
  });
});

describe('parseRevisaoQuery', () => {
  it('accepts absence and non-negative int32 values', () => {
    expect(parseRevisaoQuery(undefined)).toEqual({ value: undefined, violacoes: [] });
    expect(parseRevisaoQuery('0')).toEqual({ value: 0, violacoes: [] });
    expect(parseRevisaoQuery('2147483647')).toEqual({ value: 2147483647, violacoes: [] });
    expect(parseRevisaoQuery(['3'])).toEqual({ value: 3, violacoes: [] });
  });

  it.each(['-1', '1.0', 'abc', '', '2147483648', ' 1'])('rejects revisao=%j', (raw) => {
    expect(parseRevisaoQuery(raw)).toEqual({
      violacoes: [{ razao: 'O parâmetro revisao não respeita o _schema_.', propriedade: 'revisao', valor: raw }],
    });
  });

  it('rejects a repeated revisao', () => {
    expect(parseRevisaoQuery(['1', '2'])).toEqual({
      violacoes: [{ razao: 'O parâmetro revisao foi informado mais de uma vez.', propriedade: 'revisao' }],
    });
  });
});
