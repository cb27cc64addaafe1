import fc from 'fast-check';
import { CobVRevisadaDto, CobVSolicitadaDto } from '../cobv/cobv-request.dto';
import { officialExample } from '../testing/official-examples';
import { JSON_LIMITS } from './sanitize-json';
import { MAX_VIOLACOES, validateBody } from './validate-body';

const put = (body: unknown) => validateBody(CobVSolicitadaDto, body);

function deepObject(depth: number): unknown {
  let v: unknown = { fim: true };
  for (let i = 0; i < depth; i++) v = { a: v };
  return v;
}

describe('validateBody', () => {
  it.each([
    ['null', null, 'null'],
    ['an array', [officialExample('cobBody1')], undefined],
    ['a string', 'cobv', 'cobv'],
    ['a number', 42, '42'],
    ['a boolean', true, 'true'],
    ['undefined', undefined, undefined],
  ])('gives one violation on the root for %s', (_label, body, valor) => {
    const expected: Record<string, string> = { razao: 'O objeto cobv não respeita o _schema_.', propriedade: 'cobv' };
    if (valor !== undefined) expected.valor = valor;
    expect(put(body)).toEqual({ violacoes: [expected] });
  });

  it('names violations after the given root', () => {
    expect(validateBody(CobVRevisadaDto, { chave: 1 }, 'loteCobV.cobsV[0]').violacoes).toEqual([
      {
        razao: 'O campo loteCobV.cobsV[0].chave não respeita o _schema_: esperado texto de até 77 caracteres.',
        propriedade: 'loteCobV.cobsV[0].chave',
        valor: '1',
      },
    ]);
  });

  it('never returns a value together with violations', () => {
    const result = put({ ...officialExample('cobBody1'), extra: 1 });
    expect(result.value).toBeUndefined();
    expect(result.violacoes).toHaveLength(1);
  });

  describe('members named like Object.prototype members are unknown members', () => {
    // Own names only: a lookup on a plain object finds these on its prototype.
    const PROTOTYPE_NAMES = Object.getOwnPropertyNames(Object.prototype).filter((n) => n !== '__proto__' && n !== 'constructor');
    const OBJECTS = [[], ['calendario'], ['devedor'], ['valor'], ['valor', 'multa'], ['valor', 'desconto'], ['valor', 'desconto', 'descontoDataFixa', '0'], ['infoAdicionais', '0'], ['loc']];
    it.each(PROTOTYPE_NAMES.flatMap((name) => OBJECTS.map((at) => [name, at] as const)))('%s in cobv.%j is refused and named', (name, at) => {
      const body = { ...officialExample('cobBody1'), infoAdicionais: [{ nome: 'Pedido', valor: '4711' }] };
      let target: any = body;
      for (const key of at) target = target[key];
      target[name] = 1;
      const path = ['cobv', ...at].join('.').replace(/\.(\d+)/g, '[$1]');
      for (const validate of [put, (b: unknown) => validateBody(CobVRevisadaDto, b)]) {
        const result = validate(JSON.parse(JSON.stringify(body)));
        expect(result.value).toBeUndefined();
        expect(result.violacoes).toContainEqual({ razao: `O campo ${path}.${name} não é permitido pelo _schema_.`, propriedade: `${path}.${name}`, valor: '1' });
      }
    });
  });

  describe('prototype pollution', () => {
    afterEach(() => {
      // Belt and braces: a failing test must not leak pollution into the next.
      delete (Object.prototype as any).polluted;
    });

    it('rejects __proto__ / constructor / prototype keys at any level and leaves prototypes alone', () => {
      const body = officialExample('cobBody1');
      const json = JSON.stringify(body)
        .replace(/^\{/, '{"__proto__":{"polluted":"root"},"constructor":{"prototype":{"polluted":"ctor"}},')
        .replace('"devedor":{', '"devedor":{"__proto__":{"polluted":"devedor"},')
        .replace('"descontoDataFixa":[{', '"descontoDataFixa":[{"prototype":{"polluted":"item"},');
      const result = put(JSON.parse(json));
      expect(result.violacoes.map((v) => v.propriedade)).toEqual([
        'cobv.__proto__',
        'cobv.constructor',
        'cobv.devedor.__proto__',
        'cobv.valor.desconto.descontoDataFixa[0].prototype',
      ]);
      expect(result.violacoes[0].razao).toBe('O campo cobv.__proto__ não é permitido pelo _schema_.');
      expect(({} as any).polluted).toBeUndefined();
      expect((Object.prototype as any).polluted).toBeUndefined();
      expect((CobVSolicitadaDto.prototype as any).polluted).toBeUndefined();
    });

    it('does not mutate the input body', () => {
      const body = JSON.parse('{"__proto__":{"x":1},"chave":"k","valor":{"multa":{"modalidade":"2"}}}');
      const before = JSON.stringify(body);
      put(body);
      expect(JSON.stringify(body)).toBe(before);
      expect(Object.keys(body)).toContain('__proto__');
    });
  });

  describe('hostile sizes', () => {
    it('survives very deep nesting under known and unknown members', () => {
      const body = officialExample('cobBody1');
      body.valor.multa = deepObject(100_000);
      body.extra = deepObject(100_000);
      const result = put(body);
      expect(result.value).toBeUndefined();
      expect(result.violacoes.map((v) => v.propriedade)).toEqual(
        expect.arrayContaining(['cobv.extra', 'cobv.valor.multa.a']),
      );
    });

    it('reports a deep but otherwise plausible body at the depth limit', () => {
      const body = officialExample('cobBody1');
      body.infoAdicionais = [{ nome: 'a', valor: deepObject(JSON_LIMITS.maxDepth) }];
      const paths = put(body).violacoes.map((v) => v.propriedade);
      expect(paths).toContain('cobv.infoAdicionais[0].valor');
    });

    it('handles huge arrays quickly and reports them once', () => {
      const body = officialExample('cobBody1');
      body.infoAdicionais = Array.from({ length: 200_000 }, () => ({ nome: 'a', valor: 'b' }));
      body.valor.desconto.descontoDataFixa = Array.from({ length: 200_000 }, () => 0);
      const started = Date.now();
      const result = put(body);
      expect(Date.now() - started).toBeLessThan(2000);
      expect(result.violacoes.map((v) => v.propriedade)).toEqual([
        'cobv.infoAdicionais',
        'cobv.valor.desconto.descontoDataFixa',
      ]);
    });

    it('caps the number of violations for bodies full of unknown keys', () => {
      const body: Record<string, unknown> = officialExample('cobBody1');
      for (let i = 0; i < 100_000; i++) body[`k${i}`] = i;
      const result = put(body);
      expect(result.violacoes.length).toBeGreaterThan(0);
      expect(result.violacoes.length).toBeLessThanOrEqual(MAX_VIOLACOES);
    });
  });

  describe('fuzzing', () => {
    const checkShape = (result: ReturnType<typeof put>) => {
      expect(Array.isArray(result.violacoes)).toBe(true);
      expect(result.violacoes.length).toBeLessThanOrEqual(MAX_VIOLACOES);
      for (const v of result.violacoes) {
        expect(typeof v.razao).toBe('string');
        if (v.valor !== undefined) expect(typeof v.valor).toBe('string');
      }
      if (result.value !== undefined) expect(result.violacoes).toEqual([]);
    };

    it('never throws for arbitrary JSON values, for PUT and PATCH', () => {
      fc.assert(
        fc.property(fc.jsonValue(), (json) => {
          checkShape(put(json));
          checkShape(validateBody(CobVRevisadaDto, json) as ReturnType<typeof put>);
        }),
        { numRuns: 500 },
      );
    });

    it('never throws when any member of cobBody1 is replaced by arbitrary JSON', () => {
      const leafPaths = [
        ['calendario'], ['calendario', 'dataDeVencimento'], ['calendario', 'validadeAposVencimento'],
        ['loc'], ['loc', 'id'], ['devedor'], ['devedor', 'cpf'], ['devedor', 'nome'], ['valor'],
        ['valor', 'original'], ['valor', 'multa'], ['valor', 'multa', 'modalidade'], ['valor', 'juros'],
        ['valor', 'desconto'], ['valor', 'desconto', 'descontoDataFixa'], ['chave'], ['solicitacaoPagador'],
        ['infoAdicionais'], ['__proto__'], ['constructor'],
      ];
      fc.assert(
        fc.property(fc.constantFrom(...leafPaths), fc.jsonValue(), (path, replacement) => {
          const body = officialExample('cobBody1');
          let target: any = body;
          for (const key of path.slice(0, -1)) target = target[key];
          Object.defineProperty(target, path[path.length - 1], { value: replacement, enumerable: true, writable: true, configurable: true });
          checkShape(put(body));
          expect(({} as any).polluted).toBeUndefined();
        }),
        { numRuns: 500 },
      );
    });
  });
});
