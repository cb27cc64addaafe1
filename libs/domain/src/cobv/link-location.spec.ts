import { cobvDecider, type CobVCommand, type CobVEvent, type CobVInput, type CobVPatchInput, type CobVState, type LocationReferenciada, type PayloadLocation, type Recebedor } from '..';
import { deciderSpec } from '../testing/decider-spec';

// PATCH /cobv/{txid} with `loc.id` gives a charge unlinked from its location (DELETE
// /loc/{id}/txid) a location made by POST /loc, claimed by the shell first (ADR 12).
const spec = deciderSpec(cobvDecider);
const txid = 'linklocationspec0000000000001';
const now = new Date('2026-11-22T15:00:00.000Z');
const later = new Date('2026-11-23T15:00:00.000Z');
const recebedor: Recebedor = { id: 'local', nome: 'Loja', cnpj: '56989000019533', logradouro: 'Rua A', cidade: 'São Paulo', uf: 'SP', cep: '70800100', chaves: ['+5511999990000'] };
const body: CobVInput = { calendario: { dataDeVencimento: '2026-12-31' }, devedor: { cpf: '12345678909', nome: 'Ana' }, valor: { original: '10.00' }, chave: '+5511999990000' };
const implicit = { id: 7, location: 'pix.example/qr/v2/cobv/implicit' };
const explicit: PayloadLocation = { id: 42, location: 'pix.example/qr/v2/cobv/explicit', criacao: '2026-11-20T10:00:00.000Z' };

const created = spec.given([]).when({ type: 'CriarOuAlterarCobV', txid, input: body, now, recebedor, novaLocation: implicit }).then(() => undefined);
const unlinked: CobVEvent[] = [...created, ...spec.given(created).when({ type: 'DesvincularLocationCobV', txid, locId: implicit.id, now }).then(() => undefined)];
const patch = (input: CobVPatchInput, extra: { locationSolicitada?: PayloadLocation; locationReferenciada?: LocationReferenciada } = {}): CobVCommand => ({ type: 'RevisarCobV', txid, input, now: later, recebedor, ...extra });
const fold = (events: CobVEvent[]) => events.reduce(cobvDecider.evolve, cobvDecider.initialState) as Extract<CobVState, { exists: true }>;
const razao = (events: CobVEvent[], command: CobVCommand) => spec.given(events).when(command).thenThrows('CobVOperacaoInvalida', ['cobv.loc.id']).violacoes.find((v) => v.propriedade === 'cobv.loc.id')!.razao;

describe('cobv decider: PATCH loc.id links a charge that has no location', () => {
  it('gives it the claimed location without a new revision (the contract leaves `loc` out of revisao), which the state then shows', () => {
    expect(fold(unlinked).loc).toBeUndefined();
    const linked = spec.given(unlinked).when(patch({ loc: { id: 42 } }, { locationSolicitada: explicit })).then((e) => {
      expect(e).toEqual([{ type: 'CobVLocationVinculada', data: { txid, em: later.toISOString(), loc: explicit } }]);
    });
    const state = fold([...unlinked, ...linked]);
    expect(state).toMatchObject({ loc: explicit, revisao: 0, atualizadaEm: later.toISOString() });
    // Linked now: the same loc.id again is its own, no new revision; a later revision keeps it.
    spec.given([...unlinked, ...linked]).when(patch({ loc: { id: 42 } }, { locationSolicitada: explicit })).then([]);
    const revised = spec.given([...unlinked, ...linked]).when(patch({ solicitacaoPagador: 'pedido 1' })).then((e) => expect(e.map((x) => x.type)).toEqual(['CobVRevisada']));
    expect(fold([...unlinked, ...linked, ...revised])).toMatchObject({ loc: explicit, revisao: 1 });
  });

  it('links and revises the content in one PATCH: one revision for the content, the link beside it', () => {
    const events = spec.given(unlinked).when(patch({ loc: { id: 42 }, valor: { original: '20.00' } }, { locationSolicitada: explicit })).then((e) => {
      expect(e).toHaveLength(2);
      expect(e[0]).toMatchObject({ type: 'CobVRevisada', data: { revisao: 1, cobranca: { valor: { original: 2000 } } } });
      expect(e[1]).toEqual({ type: 'CobVLocationVinculada', data: { txid, em: later.toISOString(), loc: explicit } });
    });
    expect(fold([...unlinked, ...events])).toMatchObject({ loc: explicit, revisao: 1 });
  });

  it('refuses, claiming nothing in the event, when the content is refused or the charge is not ATIVA', () => {
    spec.given(unlinked).when(patch({ loc: { id: 42 }, valor: { original: '0.00' } }, { locationSolicitada: explicit })).thenThrows('CobVOperacaoInvalida', ['cobv.valor.original']);
    const removed = [...unlinked, ...spec.given(unlinked).when(patch({ status: 'REMOVIDA_PELO_USUARIO_RECEBEDOR' })).then(() => undefined)];
    spec.given(removed).when(patch({ loc: { id: 42 } }, { locationSolicitada: explicit })).thenThrows('CobVOperacaoInvalida', ['cobv.status']);
    // Removal together with a location is removal with other changes.
    spec.given(unlinked).when(patch({ status: 'REMOVIDA_PELO_USUARIO_RECEBEDOR', loc: { id: 42 } }, { locationSolicitada: explicit })).thenThrows('CobVOperacaoInvalida', ['cobv.status']);
    spec.given([]).when(patch({ loc: { id: 42 } }, { locationSolicitada: explicit })).thenThrows('CobVNaoEncontrada');
  });

  it('says why a loc.id it cannot take is refused: absent, serving another charge, or existing but not available', () => {
    expect(razao(unlinked, patch({ loc: { id: 42 } }))).toBe('O location referenciado por cobv.loc.id inexiste.');
    expect(razao(unlinked, patch({ loc: { id: 42 } }, { locationReferenciada: { txid: 'outra' } }))).toBe('O location referenciado por cobv.loc.id já está sendo utilizado por outra cobrança.');
    // Its own implicit location, freed: it has no stream, so it stays unusable.
    expect(razao(unlinked, patch({ loc: { id: 7 } }, { locationReferenciada: {} }))).toBe('O location referenciado por cobv.loc.id existe, mas não está disponível para esta cobrança.');
    // A claim for the wrong id is not taken.
    expect(razao(unlinked, patch({ loc: { id: 43 } }, { locationSolicitada: explicit }))).toBe('O location referenciado por cobv.loc.id inexiste.');
  });

  it('keeps a charge that has a location on it: another loc.id is refused, its own changes nothing', () => {
    spec.given(created).when(patch({ loc: { id: 42 } }, { locationSolicitada: explicit, locationReferenciada: {} })).thenThrows('CobVOperacaoInvalida', ['cobv.loc.id']);
    spec.given(created).when(patch({ loc: { id: implicit.id } })).then([]);
    // A location claimed for this very charge that does not serve it is no "other charge".
    expect(razao(created, patch({ loc: { id: 42 } }, { locationReferenciada: { txid } }))).toBe('O location referenciado por cobv.loc.id existe, mas não está disponível para esta cobrança.');
  });

  it('links through PATCH only: PUT on an existing charge still names only its own location', () => {
    const put: CobVCommand = { type: 'CriarOuAlterarCobV', txid, input: { ...body, loc: { id: 42 } }, now: later, recebedor, locationSolicitada: explicit, locationReferenciada: {} };
    spec.given(unlinked).when(put).thenThrows('CobVOperacaoInvalida', ['cobv.loc.id']);
  });
});
