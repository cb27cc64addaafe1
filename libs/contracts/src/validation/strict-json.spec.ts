import fc from 'fast-check';
import { hasRefusedText, hasUnstorableText, MAX_JSON_DEPTH, parseStrictJson, StrictJsonError } from './strict-json';

const faultOf = (text: string) => {
  try {
    parseStrictJson(text);
    return undefined;
  } catch (error) {
    if (!(error instanceof StrictJsonError)) throw error;
    return { fault: error.fault, path: error.path };
  }
};

describe('parseStrictJson', () => {
  it('reads what JSON.parse reads, for any JSON text without unstorable text, __proto__ or inexact integers', () => {
    fc.assert(
      fc.property(fc.json({ maxDepth: 8 }), (text) => {
        const expected = JSON.parse(text);
        const fault = faultOf(text);
        // 'number': fast-check writes integers past 2^53 (1e+21), which no body of the contract holds.
        if (fault) expect(['text', 'proto', 'number']).toContain(fault.fault);
        else expect(parseStrictJson(text)).toStrictEqual(expected);
      }),
      { numRuns: 2000 },
    );
  });

  it.each([
    ['{"valor":{"original":"1.00"},"valor":{"original":"2.00"}}', 'valor'],
    ['{"webhookUrl":123,"webhookUrl":"http://example.com"}', 'webhookUrl'],
    ['{"a":1,"\\u0061":2}', 'a'],
    ['{"valor":{"multa":{"modalidade":1,"modalidade":2}}}', 'valor.multa.modalidade'],
    ['{"cobsv":[{"txid":"a"},{"txid":"b","txid":"c"}]}', 'cobsv[1].txid'],
  ])('refuses duplicate member names: %s', (text, path) => {
    expect(faultOf(text)).toEqual({ fault: 'duplicate', path });
  });

  it.each([
    ['{"validadeAposVencimento":29.999999999999999}', 'validadeAposVencimento'],
    ['{"validadeAposVencimento":1e-400}', 'validadeAposVencimento'],
    ['{"a":[-1e-400]}', 'a[0]'],
    ['{"validadeAposVencimento":2147483647.0000000001}', 'validadeAposVencimento'],
    ['{"n":9007199254740993}', 'n'],
  ])('refuses a number that would be read as an integer it is not: %s', (text, path) => {
    expect(faultOf(text)).toEqual({ fault: 'number', path });
  });

  it('reads integers written with a point or an exponent, and fractions, as they are', () => {
    expect(parseStrictJson('[30.0,300e-1,3E1,-0.0,0.0e-5,2.5,1.5e1,100e-2,-30.00e0]')).toEqual([30, 30, 30, -0, 0, 2.5, 15, 1, -30]);
  });

  it.each([
    ['{"nome":"\\u0000"}', 'nome'],
    ['{"nome":"a\\ud800"}', 'nome'],
    ['{"nome":"\\udc00b"}', 'nome'],
    ['{"a":["ok","\\ud83d"]}', 'a[1]'],
    ['{"\\u0000":1}', ''],
    ['"\ud800"', ''],
  ])('refuses NUL and lone surrogates, escaped or raw: %s', (text, path) => {
    expect(faultOf(text)).toEqual({ fault: 'text', path });
  });

  it.each([
    ['{"nome":"a\\u0001b"}', 'nome'],
    ['{"nome":"linha\\nlinha"}', 'nome'],
    ['{"nome":"\\t"}', 'nome'],
    ['{"nome":"\\r"}', 'nome'],
    ['{"nome":"\\u001f"}', 'nome'],
    ['{"a":[{"valor":"x\\u007f"}]}', 'a[0].valor'],
    ['{"a":"x\u007fy"}', 'a'],
    ['{"a":"\u0080"}', 'a'],
    ['{"a":"\\u009F"}', 'a'],
    ['{"a\\u0085":1}', ''],
  ])('refuses every other control character too (C0, DEL, C1), escaped or raw: %s', (text, path) => {
    expect(faultOf(text)).toEqual({ fault: 'text', path });
  });

  it('keeps surrogate pairs and every other character', () => {
    expect(parseStrictJson('{"a":"\\ud83d\\ude00 😀 \\u00e7 ç \\u00a0 ~ \\u00a0"}')).toEqual({ a: '😀 😀 ç ç \u00a0 ~ \u00a0' });
  });

  it('bounds nesting without recursing to the stack limit', () => {
    for (const [open, close] of [['[', ']'], ['{"a":', '}']]) {
      const deep = open.repeat(10_000) + '1' + close.repeat(10_000);
      expect(faultOf(deep)?.fault).toBe('depth');
      const allowed = open.repeat(MAX_JSON_DEPTH) + '1' + close.repeat(MAX_JSON_DEPTH);
      expect(faultOf(allowed)).toBeUndefined();
    }
    expect(faultOf('{"webhookUrl":' + '['.repeat(10_000) + ']'.repeat(10_000) + '}')).toEqual({ fault: 'depth', path: 'webhookUrl' + '[0]'.repeat(MAX_JSON_DEPTH - 1) });
  });

  // Memory audit: 4 MiB of `[{},{},…]` (1.4 million objects) cost ~0.5-1 s of the event loop and
  // ~100 MB of heap per request, read before the token was checked; 2 million zeros ~2 s.
  it('refuses a body denser than one value per 8 bytes (any body may hold 10,000) before building it', () => {
    const items = (n: number, item: string) => `{"cobsv":[${Array(n).fill(item).join(',')}]}`;
    expect(faultOf(items(10_000 - 2, '{}'))).toBeUndefined();
    expect(faultOf(items(10_000 - 1, '{}'))).toEqual({ fault: 'size', path: 'cobsv[9998]' });
    const dense = items(1_398_000, '{}');
    expect(faultOf(dense)).toEqual({ fault: 'size', path: `cobsv[${Math.floor(dense.length / 8) - 2}]` });
  });

  it('reads the densest body the contract has: a batch of 1,000 charges, each with every member and 50 infoAdicionais', () => {
    const info = Array.from({ length: 50 }, (_, i) => ({ nome: `Campo ${i}`, valor: `Valor ${i}` }));
    const desconto = { modalidade: 1, descontoDataFixa: [1, 2, 3].map((d) => ({ data: `2030-12-0${d}`, valorPerc: '1.00' })) };
    const cobv = (i: number) => ({
      txid: `t${String(i).padStart(29, '0')}`,
      calendario: { dataDeVencimento: '2030-12-31', validadeAposVencimento: 30 },
      loc: { id: i },
      devedor: { cnpj: '12345678000195', nome: 'N', email: 'a@b.co', logradouro: 'R', cidade: 'C', uf: 'SP', cep: '70800100' },
      valor: { original: '1.00', multa: { modalidade: 2, valorPerc: '1.00' }, juros: { modalidade: 2, valorPerc: '1.00' }, abatimento: { modalidade: 1, valorPerc: '1.00' }, desconto },
      chave: 'a@b.co',
      solicitacaoPagador: 'S',
      infoAdicionais: info,
    });
    const text = JSON.stringify({ descricao: 'D', cobsv: Array.from({ length: 1000 }, (_, i) => cobv(i)) });
    expect(text.length).toBeLessThan(4 * 1024 * 1024);
    expect((parseStrictJson(text) as { cobsv: unknown[] }).cobsv).toHaveLength(1000);
  });

  it('refuses __proto__ anywhere and keeps other prototype names as own members', () => {
    expect(faultOf('{"a":{"__proto__":{"x":1}}}')).toEqual({ fault: 'proto', path: 'a.__proto__' });
    expect(faultOf('{"\\u005f_proto__":1}')).toEqual({ fault: 'proto', path: '__proto__' });
    const value = parseStrictJson('{"constructor":1,"valueOf":2,"hasOwnProperty":3}') as Record<string, unknown>;
    expect(Object.keys(value)).toEqual(['constructor', 'valueOf', 'hasOwnProperty']);
    expect(Object.getPrototypeOf(value)).toBe(Object.prototype);
  });

  it.each(['', ' ', '{', '{"a":1,}', '[1,]', '01', '1.', '.5', '+1', 'NaN', "{'a':1}", '{"a":1} x', '"\t"', '"\\x41"', '"\\u12"', 'tru', 'nul'])(
    'refuses what RFC 8259 does not allow: %j',
    (text) => {
      expect(() => JSON.parse(text)).toThrow();
      expect(faultOf(text)?.fault).toBe('syntax');
    },
  );
});

describe('hasUnstorableText', () => {
  it.each([
    ['', false],
    ['ç😀', false],
    ['\u0000', true],
    ['a\ud800', true],
    ['\udfff', true],
    ['\ud800\udc00', false],
  ])('%j → %s', (s, expected) => expect(hasUnstorableText(s)).toBe(expected));

  it('lets other controls through (Kafka cash-ins: only what cannot be stored)', () => expect(hasUnstorableText('a\tb\u0085')).toBe(false));
});

describe('hasRefusedText', () => {
  it.each([
    ['', false],
    ['Cobrança nº 1 — ç ~ \u00a0 😀', false],
    ['\u0000', true],
    ['\t', true],
    ['\n', true],
    ['\u001f', true],
    ['\u007f', true],
    ['\u0080', true],
    ['\u009f', true],
    ['a\ud800', true],
  ])('%j → %s', (s, expected) => expect(hasRefusedText(s)).toBe(expected));
});
