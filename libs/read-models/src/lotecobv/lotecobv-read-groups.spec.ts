import { gruposDeLeitura, type LoteListado } from './lotecobv-queries';

const lote = (id: string, quantidade: number, descricaoBytes = 10): LoteListado => ({ id, quantidade, descricaoBytes });
const limite = { solicitacoes: 1000, descricaoBytes: 4 * 1_048_576 };

describe('GET /lotecobv reads a page in groups no larger than one of the largest batches', () => {
  it('reads 451 small batches in one statement, keeping their order', () => {
    const lotes = Array.from({ length: 451 }, (_, i) => lote(String(i), 2));
    expect(gruposDeLeitura(lotes, limite)).toEqual([lotes.map((l) => l.id)]);
  });

  it('closes a group before it would pass either limit, and reads a batch past one alone', () => {
    expect(gruposDeLeitura([lote('a', 600), lote('b', 400), lote('c', 1), lote('d', 1000), lote('e', 5000), lote('f', 1)], limite)).toEqual([['a', 'b'], ['c'], ['d'], ['e'], ['f']]);
    const mb = 1_048_576;
    expect(gruposDeLeitura([lote('a', 1, 3 * mb), lote('b', 1, mb), lote('c', 1, 1), lote('d', 1, 5 * mb)], limite)).toEqual([['a', 'b'], ['c'], ['d']]);
    expect(gruposDeLeitura([], limite)).toEqual([]);
    // A size not known is read alone.
    expect(gruposDeLeitura([lote('a', 1), lote('b', Number.POSITIVE_INFINITY), lote('c', 1)], limite)).toEqual([['a'], ['b'], ['c']]);
  });
});
