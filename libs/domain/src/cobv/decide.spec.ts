import { cobvDecider, MAX_REVISOES_COBV, type CobVCommand, type CobVEvent, type CobVInput, type LocationReferenciada, type Recebedor } from '..';
import { deciderSpec } from '../testing/decider-spec';

const spec = deciderSpec(cobvDecider);
const txid = 'abcdefghijklmnopqrstuvwxyz012';
const now = new Date('2026-11-22T15:00:00.000Z');
const recebedor: Recebedor = {
  id: 'local',
  nome: 'Empresa de Logística SA',
  cnpj: '56989000019533',
  logradouro: 'Rua 15 Numero 1200, Bairro São Luiz',
  cidade: 'São Paulo',
  uf: 'SP',
  cep: '70800100',
  chaves: ['5f84a4c5-c5cb-4599-9f13-7eb4d419dacc'],
};
const body = (over: Partial<CobVInput> = {}): CobVInput => ({
  calendario: { dataDeVencimento: '2026-12-31', validadeAposVencimento: 30 },
  devedor: { cpf: '12345678909', nome: 'Francisco da Silva' },
  valor: { original: '123.45' },
  chave: '5f84a4c5-c5cb-4599-9f13-7eb4d419dacc',
  ...over,
});
const put = (input: CobVInput, at = now): CobVCommand => ({ type: 'CriarOuAlterarCobV', txid, input, now: at, recebedor, novaLocation: { id: 7, location: 'https://pix.example/qr/v2/cobv/x' } });
const patch = (input: Extract<CobVCommand, { type: 'RevisarCobV' }>['input'], at = now): CobVCommand => ({ type: 'RevisarCobV', txid, input, now: at, recebedor });
const created = spec.given([]).when(put(body())).then((e) => expect(e).toHaveLength(1)) as CobVEvent[];

describe('cobv decider', () => {
  it('creates a charge at revision 0 with amounts in cents and a location', () => {
    const [event] = created;
    expect(event.type).toBe('CobVCriada');
    if (event.type !== 'CobVCriada') return;
    expect(event.data.cobranca.valor.original).toBe(12345);
    expect(event.data.cobranca.calendario.validadeAposVencimento).toBe(30);
    expect(event.data.loc).toEqual({ id: 7, location: 'https://pix.example/qr/v2/cobv/x', criacao: now.toISOString() });
    expect(event.data.recebedor).not.toHaveProperty('chaves');
  });

  it('keeps at most MAX_REVISOES_COBV content revisions: one more is refused, a retry or a removal still goes', () => {
    let history = created;
    for (let n = 1; n <= MAX_REVISOES_COBV; n++)
      history = [...history, ...(spec.given(history).when(patch({ solicitacaoPagador: `Revisão ${n}` })).then((e) => expect(e).toHaveLength(1)) as CobVEvent[])];
    spec.given(history).when(patch({ solicitacaoPagador: 'Uma a mais' })).thenThrows('CobVOperacaoInvalida');
    spec.given(history).when(put(body({ valor: { original: '200.00' } }))).thenThrows('CobVOperacaoInvalida');
    spec.given(history).when(patch({ solicitacaoPagador: `Revisão ${MAX_REVISOES_COBV}` })).then([]);
    spec.given(history).when(patch({ status: 'REMOVIDA_PELO_USUARIO_RECEBEDOR' })).then((e) => expect(e).toMatchObject([{ type: 'CobVRemovida', data: { revisao: MAX_REVISOES_COBV + 1 } }]));
  });

  it('alters an ATIVA charge on PUT with revisao + 1, and ignores an identical retry', () => {
    spec.given(created).when(put(body({ valor: { original: '200.00' } }))).then((e) => {
      expect(e).toHaveLength(1);
      expect(e[0]).toMatchObject({ type: 'CobVRevisada', data: { revisao: 1, via: 'PUT' } });
    });
    spec.given(created).when(put(body())).then([]);
  });

  it('rejects a PUT to a charge that is no longer ATIVA', () => {
    const removed = spec.given(created).when(patch({ status: 'REMOVIDA_PELO_USUARIO_RECEBEDOR' })).then((e) => expect(e[0].type).toBe('CobVRemovida'));
    spec.given([...created, ...removed]).when(put(body())).thenThrows('CobVOperacaoInvalida', ['cobv.status']);
    spec.given([...created, ...removed]).when(patch({ solicitacaoPagador: 'x' })).thenThrows('CobVOperacaoInvalida', ['cobv.status']);
  });

  it('answers a PATCH that alters nothing of a removed or paid charge (a retried removal) with no event, and refuses one that alters anything', () => {
    const removed = spec.given(created).when(patch({ status: 'REMOVIDA_PELO_USUARIO_RECEBEDOR' })).then(() => undefined);
    const gone = [...created, ...removed];
    spec.given(gone).when(patch({ status: 'REMOVIDA_PELO_USUARIO_RECEBEDOR' })).then([]);
    spec.given(gone).when(patch({})).then([]);
    spec.given(gone).when(patch({ status: 'REMOVIDA_PELO_USUARIO_RECEBEDOR', valor: { original: '123.45' }, loc: { id: 7 } })).then([]);
    spec.given(gone).when(patch({ valor: { original: '123.46' } })).thenThrows('CobVOperacaoInvalida', ['cobv.status']);
    spec.given(gone).when(patch({ status: 'REMOVIDA_PELO_USUARIO_RECEBEDOR', solicitacaoPagador: 'x' })).thenThrows('CobVOperacaoInvalida', ['cobv.status']);
    spec.given(gone).when(patch({ loc: { id: 8 } })).thenThrows('CobVOperacaoInvalida', ['cobv.status']);
    const pix = { endToEndId: 'E12345678202611221500abcdefghijk', txid, valor: '123.45', chave: recebedor.chaves[0], horario: now.toISOString() };
    const paid = [...created, ...(spec.given(created).when({ type: 'RegistrarPagamentoCobV', txid, pix, now }).then(() => undefined) as CobVEvent[])];
    spec.given(paid).when(patch({ devedor: body().devedor })).then([]);
    spec.given(paid).when(patch({ status: 'REMOVIDA_PELO_USUARIO_RECEBEDOR' })).thenThrows('CobVOperacaoInvalida', ['cobv.status']);
  });

  it('PATCH merges valor one level deep and keeps the rest', () => {
    const withFine = spec.given(created).when(put(body({ valor: { original: '100.00', multa: { modalidade: 2, valorPerc: '2.00' } } }))).then(() => undefined);
    spec.given([...created, ...withFine]).when(patch({ valor: { original: '150.00' } })).then((e) => {
      expect(e[0]).toMatchObject({ type: 'CobVRevisada', data: { revisao: 2, via: 'PATCH', cobranca: { valor: { original: 15000, multa: { modalidade: 2, valorPerc: 200 } } } } });
    });
  });

  it("a batch request refuses PUT/PATCH of its txid while no charge exists, and of a charge only from the batch that created it", () => {
    const negada = [{ loteCobVId: '41', status: 'NEGADA' as const }];
    // No charge: the txid is a request denied in batch 41.
    spec.given([]).when({ ...put(body()), pendenteEmLote: negada } as CobVCommand).thenThrows('CobVOperacaoInvalida', ['txid']);
    spec.given([]).when({ ...patch({ solicitacaoPagador: 'x' }), pendenteEmLote: negada } as CobVCommand).thenThrows('CobVOperacaoInvalida', ['txid']);
    // A charge created by PUT /cobv first; batch 41's request for the same txid was denied for it
    // (they raced). The charge belongs to no batch: it stays open to PATCH, PUT and removal.
    spec.given(created).when({ ...patch({ solicitacaoPagador: 'x' }), pendenteEmLote: negada } as CobVCommand).then((e) => expect(e[0].type).toBe('CobVRevisada'));
    spec.given(created).when({ ...put(body({ valor: { original: '9.00' } })), pendenteEmLote: negada } as CobVCommand).then((e) => expect(e[0].type).toBe('CobVRevisada'));
    spec.given(created).when({ ...patch({ status: 'REMOVIDA_PELO_USUARIO_RECEBEDOR' }), pendenteEmLote: negada } as CobVCommand).then((e) => expect(e[0].type).toBe('CobVRemovida'));
    // A charge batch 7 created: another batch's denied request is not about it; its own batch's undecided round is.
    const ofBatch7 = spec.given([]).when({ ...put(body()), loteCobVId: 7 } as CobVCommand).then(() => undefined);
    spec.given(ofBatch7).when({ ...patch({ solicitacaoPagador: 'x' }), pendenteEmLote: negada } as CobVCommand).then((e) => expect(e[0].type).toBe('CobVRevisada'));
    spec
      .given(ofBatch7)
      .when({ ...patch({ solicitacaoPagador: 'x' }), pendenteEmLote: [...negada, { loteCobVId: '7', status: 'EM_PROCESSAMENTO' as const }] } as CobVCommand)
      .thenThrows('CobVOperacaoInvalida', ['txid']);
  });

  it('refuses removal together with other changes, and PATCH of a missing charge', () => {
    spec.given(created).when(patch({ status: 'REMOVIDA_PELO_USUARIO_RECEBEDOR', solicitacaoPagador: 'x' })).thenThrows('CobVOperacaoInvalida', ['cobv.status']);
    spec.given([]).when(patch({ solicitacaoPagador: 'x' })).thenThrows('CobVNaoEncontrada');
  });

  it.each<[string, CobVInput, string]>([
    ['due date before the creation day', body({ calendario: { dataDeVencimento: '2026-11-21' } }), 'cobv.calendario.dataDeVencimento'],
    ['negative validadeAposVencimento', body({ calendario: { dataDeVencimento: '2026-12-31', validadeAposVencimento: -1 } }), 'cobv.calendario.validadeAposVencimento'],
    ['CPF with wrong check digits', body({ devedor: { cpf: '12345678900', nome: 'X' } }), 'cobv.devedor.cpf'],
    ['CNPJ with wrong check digits', body({ devedor: { cnpj: '12ABC34501DE36', nome: 'X' } }), 'cobv.devedor.cnpj'],
    ['both CPF and CNPJ', body({ devedor: { cpf: '12345678909', cnpj: '11222333000181', nome: 'X' } }), 'cobv.devedor'],
    ['a key that is not a Pix key', body({ chave: 'not a key' }), 'cobv.chave'],
    ['a key of another receiver', body({ chave: '+5511999998888' }), 'cobv.chave'],
    ['a location that does not exist', body({ loc: { id: 789 } }), 'cobv.loc.id'],
    ['a zero amount', body({ valor: { original: '0.00' } }), 'cobv.valor.original'],
    ['abatimento at 100%', body({ valor: { original: '10.00', abatimento: { modalidade: 2, valorPerc: '100.00' } } }), 'cobv.valor.abatimento.valorPerc'],
    ['abatimento equal to the amount', body({ valor: { original: '10.00', abatimento: { modalidade: 1, valorPerc: '10.00' } } }), 'cobv.valor.abatimento.valorPerc'],
    ['fixed-date discount without dates', body({ valor: { original: '10.00', desconto: { modalidade: 1 } } }), 'cobv.valor.desconto.descontoDataFixa'],
    ['fixed-date discount with valorPerc', body({ valor: { original: '10.00', desconto: { modalidade: 2, valorPerc: '1.00', descontoDataFixa: [{ data: '2026-12-01', valorPerc: '1.00' }] } } }), 'cobv.valor.desconto.valorPerc'],
    ['discount dated after the due date', body({ valor: { original: '10.00', desconto: { modalidade: 1, descontoDataFixa: [{ data: '2027-01-01', valorPerc: '1.00' }] } } }), 'cobv.valor.desconto.descontoDataFixa[0].data'],
    ['discount at or above the amount', body({ valor: { original: '10.00', desconto: { modalidade: 1, descontoDataFixa: [{ data: '2026-12-01', valorPerc: '10.00' }] } } }), 'cobv.valor.desconto.descontoDataFixa[0].valorPerc'],
    ['anticipation discount without valorPerc', body({ valor: { original: '10.00', desconto: { modalidade: 3 } } }), 'cobv.valor.desconto.valorPerc'],
    ['anticipation discount with dates', body({ valor: { original: '10.00', desconto: { modalidade: 5, valorPerc: '1.00', descontoDataFixa: [{ data: '2026-12-01', valorPerc: '1.00' }] } } }), 'cobv.valor.desconto.descontoDataFixa'],
    ['juros modality out of range', body({ valor: { original: '10.00', juros: { modalidade: 9, valorPerc: '1.00' } } }), 'cobv.valor.juros'],
  ])('rejects %s naming the property', (_name, input, property) => {
    spec.given([]).when(put(input)).thenThrows('CobVOperacaoInvalida', [property]);
  });

  it('refuses a loc.id it cannot use saying whether it is absent, serves another charge, or exists but is not available (ADR 12)', () => {
    const razao = (command: CobVCommand, events: CobVEvent[] = []) => spec.given(events).when(command).thenThrows('CobVOperacaoInvalida', ['cobv.loc.id']).violacoes[0].razao;
    const named = body({ loc: { id: 789 } });
    const putNaming = (locationReferenciada?: LocationReferenciada): CobVCommand => ({ type: 'CriarOuAlterarCobV', txid, input: named, now, recebedor, novaLocation: { id: 7, location: 'x' }, locationReferenciada });
    expect(razao(putNaming())).toBe('O location referenciado por cobv.loc.id inexiste.');
    expect(razao(putNaming({ txid: 'outra' }))).toBe('O location referenciado por cobv.loc.id já está sendo utilizado por outra cobrança.');
    // A freed implicit location: it exists (GET /loc/{id} shows it), yet serves no new charge.
    const freed = 'O location referenciado por cobv.loc.id existe, mas não está disponível para esta cobrança.';
    expect(razao(putNaming({}))).toBe(freed);
    expect(razao(putNaming({}), created)).toBe(freed);
    expect(razao({ type: 'RevisarCobV', txid, input: { loc: { id: 789 } }, now, recebedor, locationReferenciada: {} }, created)).toBe(freed);
  });

  it('concludes an ATIVA charge with the Pix once, and ignores the same Pix again', () => {
    const pix = { endToEndId: 'E12345678202611221500abcdefghijk', txid, valor: '123.45', chave: recebedor.chaves[0], horario: now.toISOString() };
    const paid = spec.given(created).when({ type: 'RegistrarPagamentoCobV', txid, pix, now }).then((e) => expect(e).toMatchObject([{ type: 'CobVConcluida', data: { pix } }]));
    spec.given([...created, ...paid]).when({ type: 'RegistrarPagamentoCobV', txid, pix, now }).then([]);
    spec.given([...created, ...paid]).when(put(body())).thenThrows('CobVOperacaoInvalida', ['cobv.status']);
    spec.given([]).when({ type: 'RegistrarPagamentoCobV', txid, pix, now }).then([]);
  });

  it('accepts an alphanumeric CNPJ debtor and a due date on the creation day (São Paulo time)', () => {
    const lateEvening = new Date('2026-11-23T02:30:00.000Z'); // still 22 Nov in São Paulo
    spec.given([]).when(put(body({ calendario: { dataDeVencimento: '2026-11-22' }, devedor: { cnpj: '12ABC34501DE35', nome: 'Nova SA' } }), lateEvening)).then((e) => expect(e).toHaveLength(1));
  });
});
