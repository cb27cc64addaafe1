import { cobvDecider, type CobVCommand, type CobVEvent, type CobVInput, type CobVState, type PixRecebido, type Recebedor } from '..';
import { deciderSpec } from '../testing/decider-spec';

// The PSP removes a charge whose Pix key left its receiver (`admin key remove`): no payer's bank
// could pay it to this receiver any more (the DICT names the key's next holder, ADR 9).
const spec = deciderSpec(cobvDecider);
const txid = 'removidapelopspspec0000000001';
const now = new Date('2026-11-22T15:00:00.000Z');
const later = new Date('2026-11-23T09:30:00.000Z');
const KEY = '+5511999990000';
const OTHER = 'outra@loja.example.com';
const recebedor: Recebedor = { id: 'loja1', nome: 'Loja', cnpj: '56989000019533', logradouro: 'Rua A', cidade: 'São Paulo', uf: 'SP', cep: '70800100', chaves: [KEY, OTHER] };
const body: CobVInput = { calendario: { dataDeVencimento: '2026-12-31' }, devedor: { cpf: '12345678909', nome: 'Ana' }, valor: { original: '10.00' }, chave: KEY };
const motivo = `chave ${KEY} removida do recebedor loja1`;
const remove = (chave = KEY): CobVCommand => ({ type: 'RemoverCobVPeloPsp', txid, chave, motivo, now: later });
const fold = (events: CobVEvent[]) => events.reduce(cobvDecider.evolve, cobvDecider.initialState) as Extract<CobVState, { exists: true }>;

const created = spec.given([]).when({ type: 'CriarOuAlterarCobV', txid, input: body, now, recebedor, novaLocation: { id: 7, location: 'pix.example/qr/v2/cobv/x' } }).then(() => undefined);

describe('cobv decider: removal by the PSP (REMOVIDA_PELO_PSP)', () => {
  it('removes an ATIVA charge on the key, with revisao + 1 like a removal by the receiver', () => {
    const removed = spec.given(created).when(remove()).then([{ type: 'CobVRemovidaPeloPsp', data: { txid, revisao: 1, em: later.toISOString(), chave: KEY, motivo } }]);
    expect(fold([...created, ...removed])).toMatchObject({ status: 'REMOVIDA_PELO_PSP', revisao: 1, atualizadaEm: later.toISOString(), cobranca: { chave: KEY } });
  });

  it('is idempotent: a charge already removed by the PSP changes no more', () => {
    const removed = spec.given(created).when(remove()).then(() => undefined);
    spec.given([...created, ...removed]).when(remove()).then([]);
  });

  it('leaves a charge removed by the receiver, or concluded, as it is', () => {
    const byReceiver = spec.given(created).when({ type: 'RevisarCobV', txid, input: { status: 'REMOVIDA_PELO_USUARIO_RECEBEDOR' }, now, recebedor }).then(() => undefined);
    spec.given([...created, ...byReceiver]).when(remove()).then([]);
    const pix: PixRecebido = { endToEndId: 'E12345678202611221500abcdefghijk', txid, chave: KEY, valor: '10.00', horario: now.toISOString() };
    const paid = spec.given(created).when({ type: 'RegistrarPagamentoCobV', txid, pix, now }).then(() => undefined);
    spec.given([...created, ...paid]).when(remove()).then([]);
  });

  it('leaves a charge on another key (a PATCH moved it there before the sweep) and a charge that does not exist', () => {
    spec.given(created).when(remove(OTHER)).then([]);
    spec.given([]).when(remove()).then([]);
  });

  it('a removed charge can no longer be altered, paid or removed by its receiver', () => {
    const gone = [...created, ...spec.given(created).when(remove()).then(() => undefined)];
    spec.given(gone).when({ type: 'CriarOuAlterarCobV', txid, input: body, now: later, recebedor }).thenThrows('CobVOperacaoInvalida', ['cobv.status']);
    spec.given(gone).when({ type: 'RevisarCobV', txid, input: { status: 'REMOVIDA_PELO_USUARIO_RECEBEDOR' }, now: later, recebedor }).thenThrows('CobVOperacaoInvalida', ['cobv.status']);
    spec.given(gone).when({ type: 'RegistrarPagamentoCobV', txid, pix: { endToEndId: 'E12345678202611221500abcdefghijz', txid, chave: KEY, valor: '10.00', horario: later.toISOString() }, now: later }).then([]);
  });

  it('a Pix paid while the charge was ATIVA, read after the removal (consumers behind), concludes it', () => {
    const gone = [...created, ...spec.given(created).when(remove()).then(() => undefined)];
    const pix = { endToEndId: 'E12345678202611230929abcdefghijk', txid, chave: KEY, valor: '10.00', horario: new Date(later.getTime() - 60_000).toISOString() };
    const paid = spec.given(gone).when({ type: 'RegistrarPagamentoCobV', txid, pix, now: new Date(later.getTime() + 60_000) }).then((e) => expect(e.map((x) => x.type)).toEqual(['CobVConcluida']));
    expect(fold([...gone, ...paid])).toMatchObject({ status: 'CONCLUIDA', pix: [pix] });
  });

  it('a Pix paid before its receiver removed the charge concludes it; one paid after leaves it removed', () => {
    // Settlement records the Pix, then concludes the charge: a PATCH removing it can land in between
    // (the hostile-input audit's race), and a consumer running behind reads the Pix after it.
    const byReceiver = [...created, ...spec.given(created).when({ type: 'RevisarCobV', txid, input: { status: 'REMOVIDA_PELO_USUARIO_RECEBEDOR' }, now: later, recebedor }).then(() => undefined)];
    const before = { endToEndId: 'E12345678202611230929abcdefghijk', txid, chave: KEY, valor: '10.00', horario: new Date(later.getTime() - 1).toISOString() };
    const paid = spec.given(byReceiver).when({ type: 'RegistrarPagamentoCobV', txid, pix: before, now: later }).then((e) => expect(e.map((x) => x.type)).toEqual(['CobVConcluida']));
    expect(fold([...byReceiver, ...paid])).toMatchObject({ status: 'CONCLUIDA', revisao: 1, pix: [before] });
    spec.given([...byReceiver, ...paid]).when({ type: 'RegistrarPagamentoCobV', txid, pix: before, now: later }).then([]);
    const after = { ...before, endToEndId: 'E12345678202611230931abcdefghijk', horario: later.toISOString() };
    spec.given(byReceiver).when({ type: 'RegistrarPagamentoCobV', txid, pix: after, now: later }).then([]);
  });

  it('a Pix dated before the charge existed (beyond the clocks’ skew) leaves a removed charge removed; within the skew it concludes it', () => {
    const byReceiver = [...created, ...spec.given(created).when({ type: 'RevisarCobV', txid, input: { status: 'REMOVIDA_PELO_USUARIO_RECEBEDOR' }, now: later, recebedor }).then(() => undefined)];
    const at = (ms: number, n: number) => ({ endToEndId: `E1234567820261122150${n}abcdefghijk`, txid, chave: KEY, valor: '10.00', horario: new Date(now.getTime() + ms).toISOString() });
    spec.given(byReceiver).when({ type: 'RegistrarPagamentoCobV', txid, pix: at(-60 * 60_000, 1), now: later }).then([]);
    spec.given(byReceiver).when({ type: 'RegistrarPagamentoCobV', txid, pix: { ...at(0, 2), horario: '0001-01-01T00:00:00.000Z' }, now: later }).then([]);
    spec.given(byReceiver).when({ type: 'RegistrarPagamentoCobV', txid, pix: at(-60_000, 3), now: later }).then((e) => expect(e.map((x) => x.type)).toEqual(['CobVConcluida']));
  });
});
