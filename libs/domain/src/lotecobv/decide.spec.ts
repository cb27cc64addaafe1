import { cobvKeyOfStream, cobvStreamId, decisaoRegistrada, foldEvents, LOTECOBV_SNAPSHOT, MAX_RODADAS_ABERTAS, lotecobvDecider, lotecobvKeyOfStream, lotecobvStreamId, type LoteCobVCommand, type LoteCobVEvent, type SolicitacaoLote } from '..';
import { deciderSpec } from '../testing/decider-spec';

const spec = deciderSpec(lotecobvDecider);
const now = new Date('2026-11-22T12:00:00.000Z');
const req = (...txids: string[]): SolicitacaoLote[] => txids.map((txid) => ({ txid, corpo: { valor: { original: '1.00' } } }));
const put = (solicitacoes: SolicitacaoLote[], txidsIndisponiveis: string[] = []): LoteCobVCommand => ({ type: 'CriarOuAlterarLote', id: '7', descricao: 'Lote', solicitacoes, now, txidsIndisponiveis });
const patch = (solicitacoes: SolicitacaoLote[]): LoteCobVCommand => ({ type: 'RevisarLote', id: '7', solicitacoes, now });
const created: LoteCobVEvent[] = [{ type: 'LoteCobVCriado', data: { id: '7', descricao: 'Lote', criacao: now.toISOString(), solicitacoes: req('a', 'b', 'c') } }];

describe('lotecobv decider', () => {
  it('creates a batch with its requests in order', () => {
    spec.given([]).when(put(req('a', 'b', 'c'))).then(created);
  });

  it('rejects a creation naming a txid that already exists or belongs to another batch, whole', () => {
    const error = spec.given([]).when(put(req('a', 'b'), ['b'])).thenThrows('LoteCobVOperacaoInvalida', ['loteCobV.cobsV']);
    expect(error.violacoes[0].valor).toBe('b');
  });

  it('rejects altering three requests into four, naming the one added', () => {
    const error = spec.given(created).when(put(req('a', 'b', 'c', 'd'))).thenThrows('LoteCobVOperacaoInvalida', ['loteCobV.cobsV']);
    expect(error.violacoes.map((v) => v.valor)).toEqual(['d']);
  });

  it('rejects altering three requests into two, naming the one missing', () => {
    const error = spec.given(created).when(put(req('a', 'c'))).thenThrows('LoteCobVOperacaoInvalida', ['loteCobV.cobsV']);
    expect(error.violacoes.map((v) => v.valor)).toEqual(['b']);
  });

  it('accepts the same three, altered, as round 1 in any order', () => {
    spec.given(created).when(put(req('c', 'a', 'b'))).then((events) => {
      expect(events).toMatchObject([{ type: 'LoteCobVAlterado', data: { rodada: 1, via: 'ALTERACAO_PUT' } }]);
    });
  });

  it('a PUT repeating the last PUT (a retry) that would change no charge records nothing; a PATCH since, or a charge it would change, makes it a new round', () => {
    const unchanged = (c: LoteCobVCommand) => ({ ...c, semEfeitoNasCobrancas: true }) as LoteCobVCommand;
    spec.given(created).when(unchanged(put(req('a', 'b', 'c')))).then([]);
    // The same PUT when a charge was changed since (PATCH /cobv, an unlinked location) or a request was denied: it must take effect.
    spec.given(created).when(put(req('a', 'b', 'c'))).then((events) => expect(events).toMatchObject([{ type: 'LoteCobVAlterado', data: { rodada: 1, via: 'ALTERACAO_PUT' } }]));
    spec.given(created).when({ ...put(req('a', 'b', 'c')), semEfeitoNasCobrancas: false } as LoteCobVCommand).then((events) => expect(events).toHaveLength(1));
    const round1 = spec.given(created).when(put(req('c', 'a', 'b'))).then((events) => expect(events).toHaveLength(1)) as LoteCobVEvent[];
    spec.given([...created, ...round1]).when(unchanged(put(req('c', 'a', 'b')))).then([]);
    const patched = spec.given(created).when(patch(req('b'))).then((events) => expect(events).toHaveLength(1)) as LoteCobVEvent[];
    spec.given([...created, ...patched]).when(unchanged(put(req('a', 'b', 'c')))).then((events) => expect(events).toMatchObject([{ data: { rodada: 2, via: 'ALTERACAO_PUT' } }]));
    spec.given(created).when(unchanged({ ...put(req('a', 'b', 'c')), descricao: 'Outro' } as LoteCobVCommand)).then((events) => expect(events).toHaveLength(1));
  });

  it('PATCH revises a subset, never a txid outside the original set, never a missing batch', () => {
    spec.given(created).when(patch(req('b'))).then((events) => expect(events).toMatchObject([{ data: { rodada: 1, via: 'REVISAO_PATCH' } }]));
    spec.given(created).when(patch(req('b', 'z'))).thenThrows('LoteCobVOperacaoInvalida', ['loteCobV.cobsV']);
    spec.given([]).when(patch(req('a'))).thenThrows('LoteCobVNaoEncontrado');
    // Neither member is required by PATCH's body: a new description alone is a change, nothing at all is none.
    spec.given(created).when({ ...patch([]), descricao: 'Novo nome' } as LoteCobVCommand).then((events) => expect(events).toMatchObject([{ data: { rodada: 1, via: 'REVISAO_PATCH', descricao: 'Novo nome', solicitacoes: [] } }]));
    spec.given(created).when(patch([])).then([]);
  });
});

describe('lotecobv decider: the processor\'s decisions', () => {
  const decisao = { id: 'L1', rodada: 0, txid: 'a', status: 'CRIADA' as const, em: '2026-11-23T00:00:00.000Z' };
  it('records each decision as given, in order, on an existing batch only', () => {
    const negada = { ...decisao, txid: 'b', status: 'NEGADA' as const };
    spec.given(created).when({ type: 'RegistrarDecisoes', id: 'L1', decisoes: [decisao, negada] }).then([
      { type: 'SolicitacaoLoteDecidida', data: decisao },
      { type: 'SolicitacaoLoteDecidida', data: negada },
    ]);
    spec.given([]).when({ type: 'RegistrarDecisoes', id: 'L1', decisoes: [decisao] }).thenThrows('LoteCobVNaoEncontrado');
  });
});

describe('lotecobv state: which decisions are recorded, and its snapshot', () => {
  const decided = (txid: string, rodada: number): LoteCobVEvent => ({ type: 'SolicitacaoLoteDecidida', data: { id: '7', rodada, txid, status: 'CRIADA', em: now.toISOString() } });
  const round = (rodada: number): LoteCobVEvent => ({ type: 'LoteCobVAlterado', data: { id: '7', rodada, via: 'ALTERACAO_PUT', em: now.toISOString(), solicitacoes: req('a', 'b', 'c') } });

  it("knows each request's latest recorded round, across rounds, without the events", () => {
    const state = foldEvents(lotecobvDecider, [...created, decided('a', 0), round(1), decided('b', 0), decided('a', 1)]);
    expect([0, 1, 2].map((r) => ['a', 'b', 'c'].filter((t) => decisaoRegistrada(state, r, t)))).toEqual([['a', 'b'], ['a'], []]);
    expect(decisaoRegistrada(foldEvents(lotecobvDecider, []), 0, 'a')).toBe(false);
    // A decision of an earlier round after a later one's changes nothing; a txid outside the batch neither.
    expect(foldEvents(lotecobvDecider, [...created, decided('a', 1), decided('a', 0), decided('z', 3)])).toEqual(foldEvents(lotecobvDecider, [...created, decided('a', 1)]));
  });

  it('a snapshot restores the state it was taken of, through JSON; another shape is refused', () => {
    const state = foldEvents(lotecobvDecider, [...created, decided('a', 0), round(1)]);
    expect(LOTECOBV_SNAPSHOT.restore(JSON.parse(JSON.stringify(state)))).toEqual(state);
    for (const json of [null, 'x', { exists: false }, { ...state, decididas: [0] }, { ...state, txids: undefined }, { ...state, rodada: '1' }]) expect(LOTECOBV_SNAPSHOT.restore(json)).toBeUndefined();
  });
});

describe('batch and charge streams', () => {
  it('name the receiver, and give back the tenant key read models use', () => {
    expect(lotecobvStreamId('loja-a', '7')).toBe('lotecobv-loja-a/7');
    expect(lotecobvKeyOfStream(lotecobvStreamId('loja-a', '7'))).toBe('loja-a/7');
    expect(cobvStreamId('loja-a', 'abc')).toBe('cobv-loja-a/abc');
    expect(cobvKeyOfStream(cobvStreamId('loja-a', 'abc'))).toBe('loja-a/abc');
    // Other streams, and streams written before receivers had ids, name no row.
    expect(cobvKeyOfStream('cobv-abc')).toBeUndefined();
    expect(cobvKeyOfStream('lotecobv-loja-a/7')).toBeUndefined();
    expect(lotecobvKeyOfStream('lotecobv-7')).toBeUndefined();
  });
});

describe('lotecobv decider: rounds waiting per request are bounded', () => {
  const round = (rodada: number, via: 'ALTERACAO_PUT' | 'REVISAO_PATCH', ...txids: string[]): LoteCobVEvent => ({ type: 'LoteCobVAlterado', data: { id: '7', rodada, via, em: now.toISOString(), solicitacoes: req(...txids) } });
  const decided = (rodada: number, txid: string): LoteCobVEvent => ({ type: 'SolicitacaoLoteDecidida', data: { id: '7', rodada, txid, em: now.toISOString(), status: 'CRIADA', criacao: now.toISOString() } });
  // The creation (round 0) and 15 PUTs, none decided: every request has 16 rounds open.
  const full = [...created, ...Array.from({ length: MAX_RODADAS_ABERTAS - 1 }, (_, k) => round(k + 1, 'ALTERACAO_PUT', 'a', 'b', 'c'))];

  it(`refuses a PUT or a PATCH that would give a request more than ${MAX_RODADAS_ABERTAS} undecided rounds (503), recording nothing`, () => {
    const error = spec.given(full).when(put(req('a', 'b', 'c'))).thenThrows('ServicoIndisponivel');
    expect(error.detail).toContain('a, b, c');
    spec.given(full).when(patch(req('b'))).thenThrows('ServicoIndisponivel');
  });

  it('takes the round again once a request decides one, and never refuses what reaches no full request', () => {
    spec.given([...full, decided(0, 'a')]).when(patch(req('a'))).then((events) => expect(events).toMatchObject([{ data: { rodada: MAX_RODADAS_ABERTAS, via: 'REVISAO_PATCH' } }]));
    spec.given([...full, decided(0, 'a')]).when(put(req('a', 'b', 'c'))).thenThrows('ServicoIndisponivel');
    spec.given([...full, ...['a', 'b', 'c'].map((t) => decided(0, t))]).when(put(req('a', 'b', 'c'))).then((events) => expect(events).toHaveLength(1));
    // A new description alone reaches no request.
    spec.given(full).when({ ...patch([]), descricao: 'Novo nome' } as LoteCobVCommand).then((events) => expect(events).toHaveLength(1));
  });

  it('counts only the rounds that reach each request, and a decision settles its round and any before it', () => {
    // 15 PATCHes of `a` alone: `a` is full, `b` has only its creation open.
    const patches = [...created, ...Array.from({ length: MAX_RODADAS_ABERTAS - 1 }, (_, k) => round(k + 1, 'REVISAO_PATCH', 'a'))];
    spec.given(patches).when(patch(req('b', 'c'))).then((events) => expect(events).toHaveLength(1));
    spec.given(patches).when(patch(req('a'))).thenThrows('ServicoIndisponivel');
    // A stream written before rounds queued: a later round decided first skipped the ones before it.
    const state = foldEvents(lotecobvDecider, [...patches, decided(MAX_RODADAS_ABERTAS - 1, 'a')]);
    expect(state.exists && state.abertas).toEqual([[], [0], [0]]);
    spec.given([...patches, decided(MAX_RODADAS_ABERTAS - 1, 'a')]).when(patch(req('a'))).then((events) => expect(events).toHaveLength(1));
  });
});
