import { officialExample } from '../testing/official-examples';
import { validateBody } from '../validation/validate-body';
import { CobVRevisadaDto } from './cobv-request.dto';

const patch = (body: unknown) => validateBody(CobVRevisadaDto, body);
const paths = (r: { violacoes: { propriedade?: string }[] }) => r.violacoes.map((v) => v.propriedade);

describe('CobVRevisadaDto (PATCH /cobv/{txid})', () => {
  it('accepts an empty body and partial revisions', () => {
    expect(patch({})).toEqual({ value: {}, violacoes: [] });
    expect(patch({ valor: { original: '567.89' }, solicitacaoPagador: 'Informar cartão fidelidade' }).violacoes).toEqual([]);
    expect(patch({ calendario: { validadeAposVencimento: 10 } }).value).toEqual({ calendario: { validadeAposVencimento: 10 } });
    expect(patch({ valor: { multa: { modalidade: '1', valorPerc: '2.00' } } }).value).toEqual({
      valor: { multa: { modalidade: 1, valorPerc: '2.00' } },
    });
  });

  it('accepts the whole official cobBody1 as a revision too', () => {
    expect(patch(officialExample('cobBody1')).violacoes).toEqual([]);
  });

  it('only allows status REMOVIDA_PELO_USUARIO_RECEBEDOR', () => {
    expect(patch({ status: 'REMOVIDA_PELO_USUARIO_RECEBEDOR' }).value).toEqual({ status: 'REMOVIDA_PELO_USUARIO_RECEBEDOR' });
    for (const status of ['ATIVA', 'CONCLUIDA', 'REMOVIDA_PELO_PSP', 'removida_pelo_usuario_recebedor', 1]) {
      expect(paths(patch({ status }))).toEqual(['cobv.status']);
    }
  });

  it('keeps inner requirements of the objects that are sent', () => {
    expect(paths(patch({ devedor: { cpf: '12345678909' } }))).toEqual(['cobv.devedor.nome']);
    expect(paths(patch({ devedor: { nome: 'Fulano' } }))).toEqual(['cobv.devedor']);
    expect(paths(patch({ valor: { juros: { modalidade: 2 } } }))).toEqual(['cobv.valor.juros.valorPerc']);
    expect(paths(patch({ loc: {} }))).toEqual(['cobv.loc.id']);
  });

  it('rejects explicit nulls and unknown members', () => {
    expect(paths(patch({ chave: null, valor: null }))).toEqual(['cobv.chave', 'cobv.valor']);
    expect(paths(patch({ calendario: { expiracao: 1 } }))).toEqual(['cobv.calendario.expiracao']);
  });
});
