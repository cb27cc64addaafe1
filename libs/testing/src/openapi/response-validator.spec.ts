import { createResponseValidator, loadRawOfficialSpec } from './index';

const validator = createResponseValidator();
const TXID = '7978c0c97ea847e78e8849634473c1f1';

// The official example, completed with what CobVGerada requires but the example leaves out.
function cobVGerada(): Record<string, any> {
  const example = structuredClone(loadRawOfficialSpec().components.examples['cobResponse4'].value) as any;
  example.location = example.loc.location;
  example.loc.criacao = '2020-09-09T20:15:00.358Z';
  example.loc.txid = example.txid;
  return example;
}

const problem = (status: number, type = 'https://pix.bcb.gov.br/api/v2/error/CobVOperacaoInvalida') => ({
  type,
  title: 'Cobrança inválida.',
  status,
  detail: 'A requisição que busca alterar ou criar uma cobrança com vencimento não respeita o schema.',
  violacoes: [{ razao: 'O campo cobv.valor.original não respeita o schema.', propriedade: 'cobv.valor.original' }],
});

describe('createResponseValidator', () => {
  describe('the official cobResponse4 example', () => {
    it('validates as CobVGerada once the fields the schema requires are added', () => {
      expect(validator.validateSchema('CobVGerada', cobVGerada())).toEqual({ valid: true, errors: [] });
      validator.expectValidResponse({ method: 'PUT', path: `/cobv/${TXID}`, status: 201, body: cobVGerada() });
    });

    it('as published, lacks what the schema requires', () => {
      const published = loadRawOfficialSpec().components.examples['cobResponse4'].value;
      const { errors } = validator.validateSchema('CobVGerada', published);
      expect(errors).toEqual(
        expect.arrayContaining([
          // Reading (h): required while the charge has a loc.
          '/ must have property location when property loc is present',
          "/loc must have required property 'criacao'",
          "/loc must have required property 'txid'",
        ]),
      );
    });
  });

  describe('rejects a CobVGerada that breaks the contract', () => {
    const cases: Array<[string, (body: any) => void, string]> = [
      ['missing txid', (b) => delete b.txid, "/ must have required property 'txid'"],
      ['valor.original with one decimal', (b) => (b.valor.original = '12.3'), '/valor/original must match pattern'],
      ['a CPF of 10 digits', (b) => (b.devedor.cpf = '1234567890'), '/devedor/cpf must match pattern "^\\d{11}$"'],
      ['a status outside the enum', (b) => (b.status = 'PENDENTE'), '/status must be equal to one of the allowed values'],
      ['loc.id as a string (int64 is a JSON integer)', (b) => (b.loc.id = '789'), '/loc/id must be integer'],
      ['revisao beyond int32', (b) => (b.revisao = 2 ** 31), '/revisao must match format "int32"'],
    ];
    it.each(cases)('%s', (_name, breakIt, expected) => {
      const body = cobVGerada();
      breakIt(body);
      const result = validator.validateResponse({ method: 'PUT', path: `/cobv/${TXID}`, status: 201, body });
      expect(result.valid).toBe(false);
      expect(result.errors.some((e) => e.startsWith(expected))).toBe(true);
    });
  });

  describe('statuses and media types', () => {
    const put = { method: 'PUT', path: `/cobv/${TXID}`, contentType: 'application/problem+json' };

    it('accepts a Problema for the documented 400 on PUT /cobv/{txid}', () => {
      expect(validator.validateResponse({ ...put, status: 400, body: problem(400) }).valid).toBe(true);
    });

    it('resolves $ref responses (404 -> components/responses/NaoEncontrado)', () => {
      const body = { ...problem(404, 'https://pix.bcb.gov.br/api/v2/error/NaoEncontrado'), violacoes: undefined };
      expect(validator.validateResponse({ method: 'GET', path: `/cobv/${TXID}`, status: 404, body }).valid).toBe(true);
      const broken = validator.validateResponse({ method: 'GET', path: `/cobv/${TXID}`, status: 404, body: {} });
      expect(broken.errors).toContain("/ must have required property 'type'");
    });

    it('rejects an undocumented 418 whose body is not a problem', () => {
      const result = validator.validateResponse({ ...put, status: 418, body: { teapot: true } });
      expect(result.valid).toBe(false);
      expect(result.errors[0]).toMatch(/418 is not documented for PUT \/cobv\/\{txid\}/);
    });

    it('accepts an undocumented 4xx/5xx only as a Problema with a Pix error type', () => {
      const malformed = { ...put, method: 'GET', status: 400, body: problem(400, 'https://pix.bcb.gov.br/api/v2/error/RequisicaoInvalida') };
      expect(validator.validateResponse(malformed).valid).toBe(true);
      expect(validator.validateResponse({ ...put, status: 500, body: problem(500, 'https://pix.bcb.gov.br/api/v2/error/ErroInterno') }).valid).toBe(true);
      const foreignType = validator.validateResponse({ ...put, status: 415, body: problem(415, 'about:blank') });
      expect(foreignType.errors).toContain('/type must match ^https:\\/\\/pix\\.bcb\\.gov\\.br\\/api\\/v2\\/error\\/[A-Za-z]+$');
    });

    it('rejects an undocumented success status', () => {
      const result = validator.validateResponse({ method: 'GET', path: `/cobv/${TXID}`, status: 204 });
      expect(result).toEqual({ valid: false, errors: [expect.stringMatching(/204 is not documented/)] });
    });

    it('treats an unknown route like an undocumented status', () => {
      expect(validator.validateResponse({ method: 'GET', path: '/nada/1', status: 200, body: {} }).valid).toBe(false);
      const notFound = problem(404, 'https://pix.bcb.gov.br/api/v2/error/NaoEncontrado');
      expect(validator.validateResponse({ method: 'DELETE', path: `/cobv/${TXID}`, status: 405, body: notFound }).valid).toBe(true);
    });

    it('rejects a Content-Type the response does not declare', () => {
      const result = validator.validateResponse({ ...put, contentType: 'application/json', status: 400, body: problem(400) });
      expect(result.errors[0]).toMatch(/Content-Type application\/json is not declared/);
    });

    it('accepts raw JSON text, with charset, as the body', () => {
      const raw = { method: 'PUT', path: `/cobv/${TXID}`, status: 201, contentType: 'application/json; charset=utf-8' };
      expect(validator.validateResponse({ ...raw, body: JSON.stringify(cobVGerada()) }).valid).toBe(true);
    });

    it('requires an empty body where the contract declares no content (PUT /lotecobv/{id} 202)', () => {
      const lote = { method: 'PUT', path: '/lotecobv/123', status: 202 };
      expect(validator.validateResponse({ ...lote, body: '' }).valid).toBe(true);
      expect(validator.validateResponse({ ...lote, body: { ok: true } }).errors).toEqual([
        'PUT /lotecobv/{id} 202 declares no content, but the body is not empty',
      ]);
    });

    it('decodes application/jose payload locations on the location server', () => {
      const payload = loadRawOfficialSpec().components.examples['cobPayload2'].value;
      const jws = ['e30', Buffer.from(JSON.stringify(payload)).toString('base64url'), 'c2ln'].join('.');
      const location = { method: 'GET', path: '/cobv/abc', status: 200, contentType: 'application/jose', server: 'location' as const };
      expect(validator.validateResponse({ ...location, body: jws }).errors).toEqual([]);
    });
  });

  describe('GET /cobv (CobsVConsultadas)', () => {
    const list = (item: object) => ({
      parametros: {
        inicio: '2020-04-01T00:00:00Z',
        fim: '2020-04-01T23:59:59Z',
        paginacao: { paginaAtual: 0, itensPorPagina: 100, quantidadeDePaginas: 1, quantidadeTotalDeItens: 1 },
      },
      cobs: [item],
    });

    it('requires idCob on each item, as the official schema says', () => {
      const required = (loadRawOfficialSpec().components.schemas['CobsVConsultadas'] as any).properties.cobs.items.allOf[1].required;
      expect(required).toEqual(['status', 'txid', 'idCob']);
      const result = validator.validateResponse({ method: 'GET', path: '/cobv', status: 200, body: list(cobVGerada()) });
      expect(result.errors).toEqual(["/cobs/0 must have required property 'idCob'"]);
      const withIdCob = { ...cobVGerada(), idCob: 'any value: idCob has no schema' };
      expect(validator.validateResponse({ method: 'GET', path: '/cobv?inicio=x', status: 200, body: list(withIdCob) }).valid).toBe(true);
    });
  });

  describe('expectValidResponse', () => {
    it('throws an Error that lists every violation', () => {
      const body = { ...cobVGerada(), status: 'PENDENTE', txid: undefined };
      const check = () => validator.expectValidResponse({ method: 'GET', path: `/cobv/${TXID}`, status: 200, body });
      expect(check).toThrow(/^GET \/cobv\/7978c0c97ea847e78e8849634473c1f1 -> 200 violates API Pix 2\.9\.0:\n/);
      expect(check).toThrow("  - / must have required property 'txid'\n");
      expect(check).toThrow('  - /status must be equal to one of the allowed values');
    });
  });

  it('is fast enough to run on every response of an end-to-end suite', () => {
    const response = { method: 'GET', path: `/cobv/${TXID}`, status: 200, body: cobVGerada() };
    const started = process.hrtime.bigint();
    for (let i = 0; i < 5000; i++) createResponseValidator().validateResponse(response);
    const elapsedMs = Number(process.hrtime.bigint() - started) / 1e6;
    expect(elapsedMs).toBeLessThan(2000);
  });
});
