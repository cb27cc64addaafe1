import { readFileSync } from 'fs';
import { createResponseValidator, loadOfficialSpec, loadRawOfficialSpec, OFFICIAL_SPEC_PATH } from './index';
import { toJsonSchema, unwrapRegexLiteral } from './openapi-schema';

const validator = createResponseValidator();
const schemas = () => loadOfficialSpec().components.schemas as Record<string, any>;

describe('official spec', () => {
  it('is the unchanged BCB contract, version 2.9.0', () => {
    expect(readFileSync(OFFICIAL_SPEC_PATH, 'utf8')).toContain('version: "2.9.0"');
    expect(loadRawOfficialSpec().info.version).toBe('2.9.0');
  });

  describe('standing readings of known defects', () => {
    it('(a) reads regex literals as patterns', () => {
      expect(unwrapRegexLiteral('/^\\d{11}$/')).toBe('^\\d{11}$');
      expect(unwrapRegexLiteral('\\d{1,10}\\.\\d{2}')).toBe('\\d{1,10}\\.\\d{2}'); // unanchored ones are kept
      expect(schemas()['PessoaFisica'].properties.cpf.pattern).toBe('^\\d{11}$');
      expect(validator.validateSchema('CPF', { cpf: '12345678909' }).valid).toBe(true);
      expect(validator.validateSchema('CPF', { cpf: '123456789091' }).valid).toBe(false);
    });

    it('(b) requires the address of `recebedor`, not of the enclosing object', () => {
      expect(schemas()['DadosRecebedor'].required).toBeUndefined();
      const recebedor = { cnpj: '56989000019533', nome: 'Empresa SA', logradouro: 'Rua 15', cidade: 'SP', uf: 'SP', cep: '70800100' };
      expect(validator.validateSchema('DadosRecebedor', { recebedor }).errors).toEqual([]);
      const { cidade: _dropped, ...withoutCidade } = recebedor;
      expect(validator.validateSchema('DadosRecebedor', { recebedor: withoutCidade }).errors).toEqual([
        "/recebedor must have required property 'cidade'",
      ]);
    });

    it('(c) describes a webhook by its `chave`, not a `cnpj`', () => {
      const webhook = { webhookUrl: 'https://pix.example.com/api/webhook/', criacao: '2020-11-11T10:15:00.358Z' };
      expect(validator.validateSchema('WebhookCompleto', { ...webhook, chave: 'fulano@example.com' }).errors).toEqual([]);
      expect(validator.validateSchema('WebhookCompleto', { ...webhook, cnpj: '56989000019533' }).errors).toEqual([
        "/ must have required property 'chave'",
      ]);
    });

    it('(d) reads the desconto oneOf so a percentage discount matches exactly one branch', () => {
      const valor = (desconto: object) => ({ original: '10.00', desconto });
      expect(validator.validateSchema('CobVValor', valor({ modalidade: 3, valorPerc: '1.00' })).errors).toEqual([]);
      expect(validator.validateSchema('CobVValor', valor({ modalidade: 1, descontoDataFixa: [{ data: '2026-12-01', valorPerc: '1.00' }] })).errors).toEqual([]);
      expect(validator.validateSchema('CobVValor', valor({ modalidade: 1 })).valid).toBe(false);
    });

    it('(i) takes a received Pix\'s txid of 1 to 35 letters and digits (a static QR code\'s has 1 to 25)', () => {
      const pix = { endToEndId: 'E12345678202611221500abcdefghijk', valor: '1.00', horario: '2026-11-22T15:00:00.000Z' };
      for (const txid of ['churrasco', 'A', 'a'.repeat(35)]) expect(validator.validateSchema('Pix', { ...pix, txid }).errors).toEqual([]);
      for (const txid of ['a'.repeat(36), 'abc-def', '']) expect(validator.validateSchema('Pix', { ...pix, txid }).valid).toBe(false);
      expect(schemas()['ParametrosConsultaPix'].properties.txid).toEqual({ type: 'string', pattern: '^[a-zA-Z0-9]{1,35}$' });
    });

    it('(g) reads locations scheme-less, as the official examples and the BR Code carry them', () => {
      const loc = { id: 789, location: 'pix.example.com/qr/c2/cobv/9d36b84fc70b478fb95c12729b90ca25', tipoCob: 'cobv', criacao: '2020-09-09T20:15:00.358Z' };
      expect(validator.validateSchema('PayloadLocation', loc).errors).toEqual([]);
      expect(validator.validateSchema('PayloadLocation', { ...loc, location: 'localhost:8080/qr/v2/cobv/x' }).errors).toEqual([]);
      expect(validator.validateSchema('PayloadLocation', { ...loc, location: `https://${loc.location}` }).valid).toBe(false);
      expect(validator.validateSchema('PayloadLocation', { ...loc, location: 'pix.example.com' }).valid).toBe(false);
      expect(validator.validateSchema('PayloadLocation', { ...loc, location: 'pix.example.com/a b' }).valid).toBe(false);
    });
  });

  describe('OpenAPI 3.0 to JSON Schema', () => {
    it('turns nullable into a null type and drops annotations Ajv would misread', () => {
      const converted = toJsonSchema({
        type: 'object',
        required: ['a', 'secret'],
        discriminator: { propertyName: 'a' },
        xml: { name: 'x' },
        example: { a: 'x' },
        properties: {
          a: { type: 'string', nullable: true, enum: ['x'], readOnly: true },
          secret: { type: 'string', writeOnly: true },
          example: { type: 'string', example: 'a property may be called example' },
        },
      });
      expect(converted).toEqual({
        type: 'object',
        required: ['a'],
        properties: {
          a: { type: ['string', 'null'], enum: ['x', null] },
          secret: { type: 'string' },
          example: { type: 'string' },
        },
      });
      expect(toJsonSchema({ allOf: [{ $ref: '#/x' }], nullable: true })).toEqual({ anyOf: [{ allOf: [{ $ref: '#/x' }] }, { type: 'null' }] });
    });

    it('checks integer formats and dates', () => {
      const calendario = { criacao: '2020-09-09T20:15:00.358Z', dataDeVencimento: '2020-12-31' };
      expect(validator.validateSchema('CobDataDeVencimento', { ...calendario, validadeAposVencimento: 2 ** 31 - 1 }).valid).toBe(true);
      expect(validator.validateSchema('CobDataDeVencimento', { ...calendario, validadeAposVencimento: 2 ** 31 }).valid).toBe(false);
      expect(validator.validateSchema('CobDataDeVencimento', { dataDeVencimento: '2020-02-30' }).valid).toBe(false);
      expect(validator.validateSchema('CobCriacao', { criacao: '2020-09-09 20:15' }).valid).toBe(false);
      expect(() => validator.validateSchema('NoSuchSchema', {})).toThrow(/not in the contract/);
    });
  });

  describe('readings of responses', () => {
    it('(e) PUT /webhook/{chave} 200 carries the registration, validated as WebhookCompleto', () => {
      const body = { webhookUrl: 'https://example.com/hook', chave: 'k', criacao: '2020-11-11T10:15:00.358Z' };
      expect(validator.validateResponse({ method: 'PUT', path: '/webhook/k', status: 200, contentType: 'application/json', body }).errors).toEqual([]);
      expect(validator.validateResponse({ method: 'PUT', path: '/webhook/k', status: 200, contentType: 'application/json', body: { webhookUrl: 'x' } }).valid).toBe(false);
    });

    it('(f) PixConsultados requires its `pix` list, not `cobs`', () => {
      const parametros = { inicio: '2020-04-01T00:00:00Z', fim: '2020-04-02T00:00:00Z', paginacao: { paginaAtual: 0, itensPorPagina: 100, quantidadeDePaginas: 1, quantidadeTotalDeItens: 0 } };
      expect(validator.validateSchema('PixConsultados', { parametros, pix: [] }).errors).toEqual([]);
      expect(validator.validateSchema('PixConsultados', { parametros }).valid).toBe(false);
    });
  });

  // Not normalised: these are where a response our requirements call correct fails the contract.
  describe('contract text that a correct-looking response fails', () => {

    it('LoteCobVConsultado: a request status is EM_PROCESSAMENTO (our requirements write EMPROCESSAMENTO), id is an integer', () => {
      const lote = { id: 1, descricao: 'Lote', criacao: '2020-11-01T20:15:00.358Z', cobsv: [{ txid: 'fb2761260e554ad593c7226beb5cb650', status: 'EM_PROCESSAMENTO' }] };
      expect(validator.validateSchema('LoteCobVConsultado', lote).errors).toEqual([]);
      const spelledOurWay = { ...lote, cobsv: [{ ...lote.cobsv[0], status: 'EMPROCESSAMENTO' }] };
      expect(validator.validateSchema('LoteCobVConsultado', spelledOurWay).valid).toBe(false);
      expect(validator.validateSchema('LoteCobVConsultado', { ...lote, id: 'lote-1' }).errors).toEqual(['/id must be integer']);
    });
  });
});
