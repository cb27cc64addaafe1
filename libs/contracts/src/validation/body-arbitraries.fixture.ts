// Test-only: fast-check arbitraries of VALID bodies for every DTO that validateBody is given (the
// cobv PUT and PATCH bodies, also as batch items) and for each nested DTO on its own, written from
// the contract rather than from the decorators, and biased towards the edges (maximum lengths in
// code points, emoji and variation selectors, int32 and safe-integer bounds, -0, numeric strings
// for modalities, leap days, member order shuffled).
import fc from 'fast-check';
import {
  AbatimentoDto,
  CalendarioRevisadoDto,
  CalendarioSolicitadoDto,
  CobVRevisadaDto,
  CobVSolicitadaDto,
  CobVValorRevisadoDto,
  CobVValorSolicitadoDto,
  DescontoDataFixaDto,
  DescontoDto,
  DevedorDto,
  InfoAdicionalDto,
  JurosDto,
  LocDto,
  MultaDto,
} from '../cobv/cobv-request.dto';

type Body = Record<string, unknown>;

/** Strings of at most `max` characters as class-validator counts them (code points, `x\uFE0F` as one). */
export const text = (max: number): fc.Arbitrary<string> =>
  fc.oneof(
    { weight: 4, arbitrary: fc.string({ maxLength: max }) },
    { weight: 2, arbitrary: fc.string({ unit: 'binary', maxLength: max }) },
    { weight: 1, arbitrary: fc.constantFrom('x'.repeat(max), '😀'.repeat(max), 'a\uFE0F'.repeat(max), `${'ç'.repeat(Math.max(0, max - 1))}😀`) },
  );

// Digit strings, not fc.stringMatching (several times slower to generate).
const digits = (min: number, max: number) => fc.string({ unit: fc.constantFrom(...'0123456789'), minLength: min, maxLength: max });
const money = fc.oneof(fc.tuple(digits(1, 10), digits(2, 2)).map(([i, d]) => `${i}.${d}`), fc.constantFrom('0.00', '1.00', '9999999999.99', '0000000000.01'));
const date = fc.oneof(
  fc.date({ min: new Date('0000-01-01T00:00:00Z'), max: new Date('9999-12-31T00:00:00Z'), noInvalidDate: true }).map((d) => d.toISOString().slice(0, 10)),
  fc.constantFrom('2024-02-29', '2000-02-29', '2023-12-31', '0000-01-01', '9999-12-31'),
);
const int32 = fc.oneof(fc.integer(), fc.constantFrom(-0, 0, -2147483648, 2147483647));
const modalidade = (max: number) => fc.integer({ min: 1, max }).chain((n) => fc.constantFrom<unknown>(n, String(n)));

/** Shuffles member order (half the time): the value must come out in the order the full path gives. */
function shuffled(record: fc.Arbitrary<Body>): fc.Arbitrary<Body> {
  return fc.tuple(record, fc.nat()).map(([body, seed]) => {
    if (seed % 2 === 0) return body;
    const keys = Object.keys(body);
    let r = seed;
    for (let i = keys.length - 1; i > 0; i--) {
      r = (r * 1103515245 + 12345) % 2147483648; // a small LCG is plenty to pick a permutation
      const j = r % (i + 1);
      [keys[i], keys[j]] = [keys[j], keys[i]];
    }
    return Object.fromEntries(keys.map((k) => [k, body[k]]));
  });
}

const rec = (model: Record<string, fc.Arbitrary<unknown>>, required: string[]) => shuffled(fc.record(model, { requiredKeys: required, noNullPrototype: true }) as fc.Arbitrary<Body>);

const calendarioPut = rec({ dataDeVencimento: date, validadeAposVencimento: int32 }, ['dataDeVencimento']);
const calendarioPatch = rec({ dataDeVencimento: date, validadeAposVencimento: int32 }, []);
const devedor = fc
  .tuple(
    fc.oneof(fc.record({ cpf: digits(11, 11) }, { noNullPrototype: true }), fc.record({ cnpj: fc.string({ unit: fc.constantFrom(...'0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ'), minLength: 14, maxLength: 14 }) }, { noNullPrototype: true })),
    fc.record({ nome: text(200), email: text(80), logradouro: text(200), cidade: text(200), uf: text(2), cep: text(8) }, { requiredKeys: ['nome'], noNullPrototype: true }),
  )
  .chain(([doc, rest]) => shuffled(fc.constant({ ...doc, ...rest })));
const loc = rec({ id: fc.oneof(fc.maxSafeInteger(), fc.constantFrom(-0, Number.MAX_SAFE_INTEGER, Number.MIN_SAFE_INTEGER)), tipoCob: fc.constant('cobv') }, ['id']);
const info = rec({ nome: text(50), valor: text(200) }, ['nome', 'valor']);
const infoAdicionais = fc.oneof({ weight: 9, arbitrary: fc.array(info, { maxLength: 5 }) }, { weight: 1, arbitrary: fc.array(info, { minLength: 45, maxLength: 50 }) });
const modalidadeValor = (max: number) => rec({ modalidade: modalidade(max), valorPerc: money }, ['modalidade', 'valorPerc']);
const descontoDataFixa = rec({ data: date, valorPerc: money }, ['data', 'valorPerc']);
const desconto = rec(
  {
    modalidade: modalidade(6),
    descontoDataFixa: fc.uniqueArray(descontoDataFixa, { minLength: 1, maxLength: 3, selector: (d) => `${d.data as string} ${d.valorPerc as string}` }),
    valorPerc: money,
  },
  ['modalidade'],
);
const valorParts = { multa: modalidadeValor(2), juros: modalidadeValor(8), abatimento: modalidadeValor(2), desconto };
const valorPut = rec({ original: money, ...valorParts }, ['original']);
const valorPatch = rec({ original: money, ...valorParts }, []);
const common = { loc, solicitacaoPagador: text(140), infoAdicionais, chave: text(77) };

export const VALID_BODIES: [string, new () => object, fc.Arbitrary<Body>][] = [
  ['CobVSolicitadaDto', CobVSolicitadaDto, rec({ ...common, calendario: calendarioPut, devedor, valor: valorPut }, ['calendario', 'devedor', 'valor', 'chave'])],
  ['CobVRevisadaDto', CobVRevisadaDto, rec({ ...common, calendario: calendarioPatch, devedor, valor: valorPatch, status: fc.constant('REMOVIDA_PELO_USUARIO_RECEBEDOR') }, [])],
];

/** The nested DTOs as roots: each one's own members get the whole budget of mutations. */
export const NESTED_BODIES: [string, new () => object, fc.Arbitrary<Body>][] = [
  ['CalendarioSolicitadoDto', CalendarioSolicitadoDto, calendarioPut],
  ['CalendarioRevisadoDto', CalendarioRevisadoDto, calendarioPatch],
  ['DevedorDto', DevedorDto, devedor],
  ['LocDto', LocDto, loc],
  ['InfoAdicionalDto', InfoAdicionalDto, info],
  ['MultaDto', MultaDto, modalidadeValor(2)],
  ['JurosDto', JurosDto, modalidadeValor(8)],
  ['AbatimentoDto', AbatimentoDto, modalidadeValor(2)],
  ['DescontoDto', DescontoDto, desconto],
  ['DescontoDataFixaDto', DescontoDataFixaDto, descontoDataFixa],
  ['CobVValorSolicitadoDto', CobVValorSolicitadoDto, valorPut],
  ['CobVValorRevisadoDto', CobVValorRevisadoDto, valorPatch],
];
